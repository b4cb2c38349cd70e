import { useState } from 'react';
import { solveCaptcha } from '../../api/west';
import type { WestMessages } from '../../i18n/west';
import { toastError } from './west-ui';

/** The proof-of-work captcha: one tap, the browser does the work, the payload goes with the form. */
export function CaptchaBox({ m, value, onChange }: { m: WestMessages; value: string; onChange: (payload: string) => void }) {
  const [busy, setBusy] = useState(false);
  const start = async () => {
    if (busy || value) return;
    setBusy(true);
    try {
      onChange(await solveCaptcha());
    } catch (err) {
      toastError(err, m);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="mw-west-captcha" onClick={() => void start()} data-testid="west-captcha">
      <input type="checkbox" readOnly checked={Boolean(value)} tabIndex={-1} />
      <span>{value ? m.westCaptchaDone : busy ? m.westCaptchaSolving : m.westCaptchaPrompt}</span>
    </button>
  );
}
