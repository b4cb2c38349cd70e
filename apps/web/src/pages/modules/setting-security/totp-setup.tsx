import { useEffect, useState } from 'react';
import { Button, Popup, Toast } from 'antd-mobile';
import type { RecoveryCodes, TotpSetup } from '@mailwing/shared';
import type { ApiError } from '../../../api/request';
import { securityApi } from '../../../api/security';
import { useSecurityT } from '../../../i18n/security';
import { groupSecret } from '../../../state/security-forms';
import { CodeInput, codeProblem } from '../../../ui/code-input';
import { copyText } from '../../../ui/copy-text';

interface Props {
  setup: TotpSetup | null;
  onClose: () => void;
  onEnabled: (codes: RecoveryCodes) => void;
}

/** Turning on second verification: scan (or type) the secret, then prove it with a code. */
export function TotpSetupSheet({ setup, onClose, onEnabled }: Props) {
  const m = useSecurityT();
  const [qr, setQr] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setQr('');
    setCode('');
    setError('');
    if (!setup) return;
    let live = true;
    // The QR encoder loads only when someone sets up an authenticator.
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toString(setup.uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => live && setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [setup]);

  const enable = async (typed = code) => {
    if (busy) return;
    const problem = codeProblem(typed, m);
    if (problem) return setError(problem);
    setBusy(true);
    try {
      onEnabled(await securityApi.totpEnable(typed.trim()));
    } catch (e) {
      const err = e as ApiError;
      setError(err.fields?.code ?? err.message);
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (setup) Toast.show({ content: (await copyText(setup.secret)) ? m.copied : m.copyFailed });
  };

  return (
    <Popup visible={setup !== null} onMaskClick={onClose} bodyClassName="mw-sheet mw-sec-sheet" destroyOnClose>
      <div className="mw-sheet-title">{m.totpTitle}</div>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void enable();
        }}
      >
        <div className="mw-sec-hint">{m.totpStep1}</div>
        <div className="mw-qr">{qr ? <img src={qr} alt={m.qrAlt} width={176} height={176} data-testid="totp-qr" /> : <div className="mw-qr-blank" />}</div>
        <div className="mw-sec-hint">{m.totpManual}</div>
        <div className="mw-secret">
          <code data-testid="totp-secret">{setup ? groupSecret(setup.secret) : ''}</code>
          <Button size="mini" fill="outline" color="primary" onClick={() => void copy()}>{m.copy}</Button>
        </div>
        <div className="mw-sec-hint">{m.totpStep2}</div>
        <CodeInput
          label={m.codeLabel}
          value={code}
          error={error}
          onChange={(v) => {
            setCode(v);
            setError('');
          }}
          onFill={(v) => void enable(v)}
        />
        <div className="mw-sheet-actions">
          <Button onClick={onClose}>{m.cancel}</Button>
          <Button type="submit" color="primary" loading={busy} data-testid="totp-enable">{m.turnOn}</Button>
        </div>
      </form>
    </Popup>
  );
}
