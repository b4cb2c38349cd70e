import { useState } from 'react';
import { Button, Toast } from 'antd-mobile';
import { useLocation, useNavigate } from 'react-router-dom';
import { Code } from '@mailwing/shared';
import type { ApiError } from '../../../api/request';
import { securityApi } from '../../../api/security';
import { useSecurityT } from '../../../i18n/security';
import { passwordMessage, passwordProblems, type PasswordField } from '../../../state/security-forms';
import { useSession } from '../../../state/session';
import { Field } from '../../../ui/field';
import { Page } from '../../../ui/page';
import '../../../ui/security.css';

const SETTINGS = '/pages/setting/index';

/**
 * Change password (spec §2, §5): the current one and the new one twice. The
 * server ends every other session of the mailbox; this one stays signed in.
 */
export default function SettingPasswordPage() {
  const m = useSecurityT();
  const navigate = useNavigate();
  const location = useLocation();
  const email = useSession((s) => s.currentEmailName);
  const [values, setValues] = useState<Record<PasswordField, string>>({ old: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<PasswordField, string>>>({});
  const [busy, setBusy] = useState(false);

  const change = (field: PasswordField) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async () => {
    const problems = passwordProblems(values);
    const next = {
      old: passwordMessage(m, problems.old, 'old'),
      password: passwordMessage(m, problems.password),
      confirm: passwordMessage(m, problems.confirm),
    };
    setErrors(next);
    if (next.old || next.password || next.confirm) return;
    setBusy(true);
    try {
      await securityApi.changePassword(values.old, values.password, values.confirm);
    } catch (e) {
      const err = e as ApiError;
      const fields = err.fields ?? {};
      if (Object.keys(fields).length > 0) setErrors({ ...fields });
      // 403: the old password is wrong; anything else (no network) as a toast.
      else if (err.code === Code.Forbidden) setErrors({ old: err.message });
      else Toast.show({ content: err.message });
      return;
    } finally {
      setBusy(false);
    }
    Toast.show({ icon: 'success', content: m.passwordChanged, duration: 3000 });
    if (location.key === 'default') navigate(SETTINGS, { replace: true });
    else navigate(-1);
  };

  return (
    <Page title={m.titlePassword} back={SETTINGS}>
      <form
        className="mw-sec-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field label={m.oldPassword} name="old-password" type="password" autoComplete="current-password" placeholder={m.oldPasswordPlaceholder} value={values.old} onChange={change('old')} error={errors.old} />
        <Field label={m.newPassword} name="new-password" type="password" autoComplete="new-password" placeholder={m.newPasswordPlaceholder} value={values.password} onChange={change('password')} error={errors.password} />
        <Field label={m.confirmPassword} name="confirm-password" type="password" autoComplete="new-password" placeholder={m.confirmPasswordPlaceholder} value={values.confirm} onChange={change('confirm')} error={errors.confirm} />
        <div className="mw-sec-hint mw-sec-note">{m.changePasswordHint}</div>
        <Button block color="primary" size="large" type="submit" loading={busy} className="mw-sec-submit" data-testid="password-submit">{m.save}</Button>
      </form>
    </Page>
  );
}
