import { useEffect, useState, type FormEvent } from 'react';
import { Button, Toast } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isSixDigitCode, VERIFY_RESEND_SECONDS } from '@mailwing/shared';
import { westApi } from '../../../api/west';
import { fill, useWestT } from '../../../i18n/west';
import { westSession } from '../../../state/west-session';
import { FormField } from '../../../ui/form-field';
import { Page } from '../../../ui/page';
import { toastError } from '../west-ui';

export default function WestVerifyPage() {
  const m = useWestT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ticket = params.get('ticket') ?? '';
  const way = params.get('way') === 'totp' ? 'totp' : 'email';
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [wait, setWait] = useState(way === 'email' ? VERIFY_RESEND_SECONDS : 0);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!isSixDigitCode(code.trim())) return setError(m.westCodePlaceholder);
    setError(undefined);
    setBusy(true);
    try {
      const s = await westApi.verify(ticket, code.trim());
      westSession.set(s.token);
      navigate('/pages/west/user/index', { replace: true });
    } catch (err) {
      toastError(err, m);
    } finally {
      setBusy(false);
    }
  };
  const resend = async () => {
    try {
      setWait((await westApi.resend(ticket)).resendIn);
      Toast.show({ content: m.westCodeSent });
    } catch (err) {
      toastError(err, m);
    }
  };

  return (
    <Page title={m.westVerifyTitle} back="/pages/west/login/index">
      <form className="mw-west" onSubmit={submit} noValidate>
        <p className="mw-west-text">{way === 'totp' ? m.westTotpHint : fill(m.westCodeSentTo, { to: params.get('to') ?? '' })}</p>
        <div className="mw-west-row">
          <FormField label={m.westCode} name="code" type="text" autoComplete="one-time-code" placeholder={m.westCodePlaceholder} value={code} onChange={setCode} error={error} />
          {way === 'email' && (
            <Button onClick={() => void resend()} disabled={wait > 0} style={{ minHeight: 44 }}>
              {wait > 0 ? fill(m.westResendIn, { s: wait }) : m.westSendCode}
            </Button>
          )}
        </div>
        <Button block color="primary" size="large" type="submit" loading={busy}>{m.westVerify}</Button>
      </form>
    </Page>
  );
}
