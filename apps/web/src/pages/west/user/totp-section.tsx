import { useEffect, useState } from 'react';
import { Button, Toast } from 'antd-mobile';
import { isSixDigitCode, type WestMe, type WestTotpSetup } from '@mailwing/shared';
import { westApi } from '../../../api/west';
import type { WestMessages } from '../../../i18n/west';
import { copyText } from '../../../ui/copy-text';
import { FormField } from '../../../ui/form-field';
import { toastError } from '../west-ui';

/** Groups a base32 key in fours, as authenticator apps show it, so it can be typed without losing one's place. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * The second verification in the personal centre: without an authenticator, logging in sends a code
 * by mail; here the customer sets one up (QR of the otpauth URI, or the key and the URI as text to
 * copy) and proves it with a code before it counts. Turning it off asks for a current code too.
 */
export function TotpSection({ m, me, onChanged }: { m: WestMessages; me: WestMe; onChanged: (me: WestMe) => void }) {
  const [setup, setSetup] = useState<WestTotpSetup>();
  const [qr, setQr] = useState('');
  const [off, setOff] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setQr('');
    if (!setup) return;
    let live = true;
    // The QR encoder is already a dependency (the mailbox's own authenticator setup); it loads only here.
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toString(setup.uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => live && setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => undefined);
    return () => { live = false; };
  }, [setup]);

  const begin = async () => {
    try {
      setSetup(await westApi.totpBegin());
      setCode('');
      setError(undefined);
    } catch (err) {
      toastError(err, m);
    }
  };
  const prove = async (turnOn: boolean) => {
    if (!isSixDigitCode(code.trim())) return setError(m.westCodePlaceholder);
    setBusy(true);
    try {
      const next = turnOn ? await westApi.totpEnable(code.trim()) : await westApi.totpDisable(code.trim());
      setSetup(undefined);
      setOff(false);
      setCode('');
      setError(undefined);
      Toast.show({ content: turnOn ? m.westTotpTurnedOn : m.westTotpTurnedOff });
      onChanged(next);
    } catch (err) {
      toastError(err, m);
    } finally {
      setBusy(false);
    }
  };
  const copy = async (text: string) => Toast.show({ content: (await copyText(text)) ? m.westCopied : m.westCopyFailed });
  const codeField = (
    <FormField label={m.westCode} name="totp-code" type="text" autoComplete="one-time-code" placeholder={m.westCodePlaceholder} value={code} onChange={setCode} error={error} />
  );

  if (me.totp) {
    return (
      <div data-testid="west-totp">
        <div className="mw-west-item sub" data-testid="west-totp-state">{m.westTotpOn}</div>
        {off ? (
          <>
            <div className="mw-west-text">{m.westTotpOffProve}</div>
            {codeField}
            <div className="mw-life-actions">
              <Button onClick={() => { setOff(false); setCode(''); setError(undefined); }}>{m.cancel}</Button>
              <Button color="danger" loading={busy} onClick={() => void prove(false)}>{m.westTotpTurnOff}</Button>
            </div>
          </>
        ) : <Button block onClick={() => setOff(true)}>{m.westTotpTurnOff}</Button>}
      </div>
    );
  }
  return (
    <div data-testid="west-totp">
      <div className="mw-west-item sub" data-testid="west-totp-state">{m.westTotpOff}</div>
      {!setup ? <Button block onClick={() => void begin()}>{m.westTotpSetUp}</Button> : (
        <>
          <div className="mw-west-text">{m.westTotpScan}</div>
          <div className="mw-west-qr">{qr ? <img src={qr} alt={m.westTotpQrAlt} width={176} height={176} data-testid="west-totp-qr" /> : <div className="mw-west-qr-blank" />}</div>
          <div className="sub">{m.westTotpKey}</div>
          <div className="mw-west-secret">
            <code data-testid="west-totp-secret">{grouped(setup.secret)}</code>
            <Button fill="outline" color="primary" onClick={() => void copy(setup.secret)}>{m.westCopy}</Button>
          </div>
          <div className="sub">{m.westTotpLink}</div>
          <div className="mw-west-secret">
            <code className="small" data-testid="west-totp-uri">{setup.uri}</code>
            <Button fill="outline" color="primary" onClick={() => void copy(setup.uri)}>{m.westCopy}</Button>
          </div>
          <div className="mw-west-text">{m.westTotpProve}</div>
          {codeField}
          <div className="mw-life-actions">
            <Button onClick={() => { setSetup(undefined); setCode(''); setError(undefined); }}>{m.cancel}</Button>
            <Button color="primary" loading={busy} onClick={() => void prove(true)} data-testid="west-totp-enable">{m.westTotpTurnOn}</Button>
          </div>
        </>
      )}
    </div>
  );
}
