import { useEffect, useState, type CSSProperties, type FormEvent } from 'react';
import { Button } from 'antd-mobile';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { isEmail } from '@mailwing/shared';
import { api } from '../../api/endpoints';
import { completeLogin, loginBranding, verifyPath } from '../../api/login';
import { setLanguage, useLanguage, useT } from '../../i18n';
import { session } from '../../state/session';
import { FormField } from '../../ui/form-field';
import { Page } from '../../ui/page';
import { TAB_ROUTES } from '../../ui/tab-layout';

// WeChat login's logic loads on demand, not with the first screen.
const wechatFlow = () => import('../../state/wechat');

export default function LoginPage() {
  const m = useT();
  const language = useLanguage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // ?email= comes back from a password reset.
  const [email, setEmail] = useState(() => params.get('email') ?? session.get().currentEmailName);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);
  // The WeChat link shows only when the server has WeChat login on.
  const [wechat, setWechat] = useState(false);
  useEffect(() => {
    void wechatFlow().then((w) => w.wechatOn()).then(setWechat);
  }, []);
  // The company's logo, name and colour (issue 17): chosen by ?domain= or the host this page is on.
  const [brand, setBrand] = useState<{ name: string; color: string; logo: string } | null>(null);
  const brandDomain = params.get('domain');
  useEffect(() => {
    void loginBranding(brandDomain).then(setBrand);
  }, [brandDomain]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim().toLowerCase();
    // Spec §5: the address must be valid, the password must not be empty.
    const found = {
      email: isEmail(address) ? undefined : m.emailInvalid,
      password: password ? undefined : m.passwordEmpty,
    };
    setErrors(found);
    if (found.email || found.password) return;
    setBusy(true);
    try {
      const result = await api.login(address, password);
      if ('verify' in result) {
        navigate(verifyPath(result));
        return;
      }
      await completeLogin(result);
      navigate(TAB_ROUTES.inbox, { replace: true });
    } catch {
      // The request layer has already told the user why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={m.titleLogin}>
      <form className="mw-login" onSubmit={submit} noValidate style={brand?.color ? ({ '--adm-color-primary': brand.color } as CSSProperties) : undefined}>
        <div className="mw-login-brand">
          <img src={brand?.logo || './icon.svg'} alt="" height={64} style={{ maxWidth: 200, objectFit: 'contain' }} />
          <div className="mw-login-name">{brand?.name || m.appName}</div>
          <div className="mw-login-sub">{m.loginSubtitle}</div>
        </div>
        <FormField
          label={m.email}
          name="email"
          type="email"
          autoComplete="username"
          placeholder={m.emailPlaceholder}
          value={email}
          onChange={setEmail}
          error={errors.email}
          clearable
        />
        <FormField
          label={m.password}
          name="password"
          type="password"
          autoComplete="current-password"
          placeholder={m.passwordPlaceholder}
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <div className="mw-login-forgot">
          <Link to={`/pages/forget/index${isEmail(email.trim()) ? `?email=${encodeURIComponent(email.trim())}` : ''}`}>{m.forgotPassword}</Link>
        </div>
        <Button block color="primary" size="large" type="submit" loading={busy} className="mw-login-submit">
          {m.login}
        </Button>
        {wechat && (
          <div className="mw-login-wechat">
            <a onClick={() => void wechatFlow().then((w) => w.startWechat('login'))}>{m.wechatLogin}</a>
          </div>
        )}
        <div className="mw-login-lang">
          <a onClick={() => setLanguage(language === 'zh' ? 'en' : 'zh')}>{language === 'zh' ? m.languageEn : m.languageZh}</a>
        </div>
      </form>
    </Page>
  );
}
