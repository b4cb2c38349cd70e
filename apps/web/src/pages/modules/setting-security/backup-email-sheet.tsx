import { useEffect, useState } from 'react';
import { Button, Popup } from 'antd-mobile';
import { isEmail, type SecurityState } from '@mailwing/shared';
import type { ApiError } from '../../../api/request';
import { securityApi } from '../../../api/security';
import { useSecurityT } from '../../../i18n/security';
import { CodeInput, codeProblem } from '../../../ui/code-input';
import { Field } from '../../../ui/field';
import { SendCodeButton } from '../../../ui/send-code-button';

interface Props {
  visible: boolean;
  current: string | null;
  onClose: () => void;
  onSaved: (state: SecurityState) => void;
  onRemove: () => void;
}

type Field = 'email' | 'password' | 'code';

/** Sets the backup address: the new address and the password send a code to it; the code proves it. */
export function BackupEmailSheet({ visible, current, onClose, onSaved, onRemove }: Props) {
  const m = useSecurityT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const address = email.trim().toLowerCase();

  useEffect(() => {
    if (!visible) return;
    setEmail('');
    setPassword('');
    setCode('');
    setSentTo('');
    setErrors({});
  }, [visible]);

  const send = async () => {
    const found = { email: isEmail(address) ? undefined : m.emailInvalid, password: password ? undefined : m.passwordRequired };
    setErrors(found);
    if (found.email || found.password) return null;
    try {
      return await securityApi.backupEmailCode(address, password);
    } catch (e) {
      const err = e as ApiError;
      setErrors({ email: err.fields?.email, password: err.fields?.password });
      throw e;
    }
  };

  const save = async (typed = code) => {
    if (busy) return;
    const found = { email: isEmail(address) ? undefined : m.emailInvalid, code: codeProblem(typed, m) || undefined };
    setErrors(found);
    if (found.email || found.code) return;
    setBusy(true);
    try {
      onSaved(await securityApi.setBackupEmail(address, typed.trim()));
    } catch (e) {
      const err = e as ApiError;
      setErrors({ email: err.fields?.email, code: err.fields?.code ?? (err.fields?.email ? undefined : err.message) });
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} bodyClassName="mw-sheet mw-sec-sheet" destroyOnClose>
      <div className="mw-sheet-title">{m.backupEmailTitle}</div>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="mw-sec-hint">{current ? m.backupEmailCurrent(current) : m.backupEmailHint}</div>
        <Field label={m.newBackupEmail} name="backup-email" type="email" autoComplete="email" placeholder={m.backupEmailPlaceholder} value={email} onChange={(v) => { setEmail(v); setErrors({}); }} error={errors.email} clearable />
        <Field label={m.password} name="password" type="password" autoComplete="current-password" placeholder={m.enterPassword} value={password} onChange={(v) => { setPassword(v); setErrors({}); }} error={errors.password} />
        <div className="mw-sec-send">
          <div className="mw-sec-hint">{sentTo ? m.codeSentTo(sentTo) : ''}</div>
          <SendCodeButton countKey={`backup:${address}`} send={send} onSent={(sent) => setSentTo(sent.to)} />
        </div>
        <CodeInput label={m.codeLabel} value={code} error={errors.code} onChange={(v) => { setCode(v); setErrors({}); }} onFill={sentTo ? (v) => void save(v) : undefined} />
        <div className="mw-sheet-actions">
          <Button onClick={onClose}>{m.cancel}</Button>
          <Button type="submit" color="primary" loading={busy} data-testid="backup-email-save">{m.save}</Button>
        </div>
        {current && (
          <div className="mw-sheet-actions">
            <Button block color="danger" fill="none" onClick={onRemove} data-testid="backup-email-remove">{m.removeBackupEmail}</Button>
          </div>
        )}
      </form>
    </Popup>
  );
}
