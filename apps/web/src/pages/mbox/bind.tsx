import { useState, type FormEvent } from 'react';
import { Button, Toast } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { isEmail } from '@mailwing/shared';
import { verifyPath } from '../../api/login';
import { bindMailbox } from '../../api/mailboxes';
import { ApiError } from '../../api/request';
import { useSettingsT } from '../../i18n/settings';
import { session } from '../../state/session';
import { Field } from '../../ui/field';
import { Page } from '../../ui/page';
import '../setting/settings.css';

const MAILBOX_TAB = '/pages/mbox/mbox-list';

/** Add mailbox (spec §6): log in to another mailbox to bind it; switching to it then needs no password. */
export default function BindMailboxPage() {
  const m = useSettingsT();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim().toLowerCase();
    // Spec §5, as at login: a valid address, a password that is not empty.
    const found = {
      email: !isEmail(address) ? m.emailInvalid : address === session.get().currentEmailName.toLowerCase() ? m.bindSelf : undefined,
      password: password ? undefined : m.passwordEmpty,
    };
    setErrors(found);
    if (found.email || found.password) return;
    setBusy(true);
    try {
      const result = await bindMailbox(address, password);
      if ('verify' in result) {
        // Its second verification first; the verify page binds it when the code is right.
        navigate(verifyPath(result, 'bind'));
        return;
      }
      session.addMailbox({ email: result.email, token: result.token });
      Toast.show({ icon: 'success', content: m.bindDone(result.email) });
      navigate(MAILBOX_TAB, { replace: true });
    } catch (error) {
      // The request layer has told the user why; a field's reason also stays under it.
      if (error instanceof ApiError) setErrors({ email: error.fields.email, password: error.fields.password });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={m.titleBind} back={MAILBOX_TAB}>
      <form className="mw-login mw-bind" onSubmit={(e) => void submit(e)} noValidate>
        <p className="mw-bind-hint">{m.bindHint}</p>
        <Field
          label={m.email}
          name="email"
          type="email"
          autoComplete="off"
          placeholder={m.emailPlaceholder}
          value={email}
          onChange={setEmail}
          error={errors.email}
          clearable
        />
        <Field
          label={m.password}
          name="password"
          type="password"
          autoComplete="off"
          placeholder={m.passwordPlaceholder}
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <Button block color="primary" size="large" type="submit" loading={busy} className="mw-login-submit">
          {m.bindSubmit}
        </Button>
      </form>
    </Page>
  );
}
