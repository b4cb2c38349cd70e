import { useState } from 'react';
import { Button } from 'antd-mobile';
import type { CodeSent } from '@mailwing/shared';
import { ApiError } from '../api/request';
import { useSecurityT } from '../i18n/security';
import { resendWait, useCountdown } from '../state/countdown';

interface Props {
  /** Names the countdown: one per ticket or address, kept across reloads. */
  countKey: string;
  /** Sends a code; null when the form is not ready (its own messages are shown). */
  send: () => Promise<CodeSent | null>;
  onSent?: (sent: CodeSent) => void;
  disabled?: boolean;
}

/**
 * "Send code", then spec §9's 60-second countdown before "Send again". When
 * the server refuses with 429 it keeps counting for as long as it asked.
 */
export function SendCodeButton({ countKey, send, onSent, disabled }: Props) {
  const m = useSecurityT();
  const [left, start] = useCountdown(countKey);
  const [busy, setBusy] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);

  const click = async () => {
    setBusy(true);
    try {
      const sent = await send();
      if (!sent) return;
      setSentOnce(true);
      start(resendWait(sent));
      onSent?.(sent);
    } catch (e) {
      if (e instanceof ApiError) {
        const wait = resendWait(e);
        if (wait > 0) start(wait);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      data-testid="send-code"
      data-countdown={left}
      className="mw-send-code"
      size="small"
      color="primary"
      fill="outline"
      loading={busy}
      disabled={disabled || busy || left > 0}
      onClick={() => void click()}
    >
      {left > 0 ? m.resendIn(left) : sentOnce ? m.resendCode : m.sendCode}
    </Button>
  );
}
