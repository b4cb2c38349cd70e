import { useEffect, useState, type FormEvent } from 'react';
import { Button, Toast } from 'antd-mobile';
import { Link, useNavigate } from 'react-router-dom';
import { isEmail, isMobile, isSixDigitCode } from '@mailwing/shared';
import { westApi } from '../../../api/west';
import { fill, useWestT } from '../../../i18n/west';
import { westSession } from '../../../state/west-session';
import { FormField } from '../../../ui/form-field';
import { Page } from '../../../ui/page';
import { CaptchaBox } from '../captcha-box';
import { toastError } from '../west-ui';

export default function WestRegisterPage() {
  const m = useWestT();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [mobile, setMobile] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [captcha, setCaptcha] = useState('');
  const [agree, setAgree] = useState(false);
  const [wait, setWait] = useState(0);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  const sendCode = async () => {
    const address = email.trim().toLowerCase();
    if (!isEmail(address)) return setErrors({ email: m.emailInvalid });
    if (!captcha) return Toast.show({ content: m.westCaptchaPrompt });
    try {
      const r = await westApi.registerCode(address, captcha);
      setWait(r.resendIn);
      Toast.show({ content: m.westCodeSent });
    } catch (err) {
      toastError(err, m);
    } finally {
      // A captcha solution opens one door: the next send needs a new one.
      setCaptcha('');
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = {
      email: isEmail(email.trim()) ? undefined : m.emailInvalid,
      mobile: mobile.trim() === '' || isMobile(mobile.trim()) ? undefined : m.westFieldInvalid,
      password: password.length >= 8 ? undefined : m.westPasswordPlaceholder,
      code: isSixDigitCode(code.trim()) ? undefined : m.westCodePlaceholder,
      agree: agree ? undefined : m.westAgreeRequired,
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    try {
      const s = await westApi.register({ email: email.trim().toLowerCase(), mobile: mobile.trim(), password, code: code.trim() });
      westSession.set(s.token);
      navigate('/pages/west/user/index', { replace: true });
    } catch (err) {
      toastError(err, m);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={m.westRegisterTitle} back="/pages/west/login/index">
      <form className="mw-west" onSubmit={submit} noValidate>
        <div className="mw-west-brand">{m.westStoreName}</div>
        <FormField label={m.westEmail} name="email" type="email" autoComplete="email" placeholder={m.westEmailPlaceholder} value={email} onChange={setEmail} error={errors.email} clearable />
        <FormField label={m.westMobile} name="mobile" type="text" autoComplete="tel" placeholder={m.westMobilePlaceholder} value={mobile} onChange={setMobile} error={errors.mobile} />
        <FormField label={m.westPassword} name="password" type="password" autoComplete="new-password" placeholder={m.westPasswordPlaceholder} value={password} onChange={setPassword} error={errors.password} />
        <CaptchaBox m={m} value={captcha} onChange={setCaptcha} />
        <div className="mw-west-row">
          <FormField label={m.westCode} name="code" type="text" autoComplete="one-time-code" placeholder={m.westCodePlaceholder} value={code} onChange={setCode} error={errors.code} />
          <Button onClick={() => void sendCode()} disabled={wait > 0} style={{ minHeight: 44 }} data-testid="west-send-code">
            {wait > 0 ? fill(m.westResendIn, { s: wait }) : m.westSendCode}
          </Button>
        </div>
        <label className="mw-west-check">
          <input type="checkbox" checked={agree} onChange={(e) => setAgree(e.target.checked)} name="agree" />
          <span>{m.westAgree} <Link to="/pages/west/agree/index">{m.westAgreeLink}</Link></span>
        </label>
        {errors.agree && <div className="mw-field-error" role="alert">{errors.agree}</div>}
        <Button block color="primary" size="large" type="submit" loading={busy}>{m.westRegister}</Button>
        <div className="mw-west-links"><Link to="/pages/west/login/index">{m.westHaveAccount}</Link></div>
      </form>
    </Page>
  );
}
