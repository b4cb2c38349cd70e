import { useState, type FormEvent } from 'react';
import { Button } from 'antd-mobile';
import { Link, useNavigate } from 'react-router-dom';
import { isEmail } from '@mailwing/shared';
import { westApi } from '../../../api/west';
import { useWestT } from '../../../i18n/west';
import { FormField } from '../../../ui/form-field';
import { Page } from '../../../ui/page';
import { toastError } from '../west-ui';

export default function WestLoginPage() {
  const m = useWestT();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = { email: isEmail(email.trim()) ? undefined : m.emailInvalid, password: password ? undefined : m.passwordEmpty };
    setErrors(found);
    if (found.email || found.password) return;
    setBusy(true);
    try {
      const c = await westApi.login(email.trim().toLowerCase(), password);
      const q = new URLSearchParams({ ticket: c.ticket, way: c.way, ...(c.to ? { to: c.to } : {}) });
      navigate(`/pages/west/login/verify?${q.toString()}`);
    } catch (err) {
      toastError(err, m);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={m.westLoginTitle}>
      <form className="mw-west" onSubmit={submit} noValidate>
        <div className="mw-west-brand">{m.westStoreName}</div>
        <FormField label={m.westEmail} name="email" type="email" autoComplete="username" placeholder={m.westEmailPlaceholder} value={email} onChange={setEmail} error={errors.email} clearable />
        <FormField label={m.westPassword} name="password" type="password" autoComplete="current-password" placeholder={m.passwordPlaceholder} value={password} onChange={setPassword} error={errors.password} />
        <Button block color="primary" size="large" type="submit" loading={busy}>{m.westLogin}</Button>
        <div className="mw-west-links">
          <Link to="/pages/west/register/index">{m.westNoAccount}</Link>
          <Link to="/pages/west/buy-mail/index">{m.westBuyTitle}</Link>
        </div>
      </form>
    </Page>
  );
}
