import { useEffect, useState } from 'react';
import { Button, Popup } from 'antd-mobile';
import type { SecurityState } from '@mailwing/shared';
import type { ApiError } from '../../../api/request';
import { securityApi } from '../../../api/security';
import { useSecurityT } from '../../../i18n/security';
import { Field } from '../../../ui/field';

interface Props {
  visible: boolean;
  current: string | null;
  onClose: () => void;
  onSaved: (state: SecurityState) => void;
  onRemove: () => void;
}

type Field = 'question' | 'answer' | 'password';

/** Sets the security question and its answer (spec §8: "answer cannot be empty"), confirmed with the password. */
export function QuestionSheet({ visible, current, onClose, onSaved, onRemove }: Props) {
  const m = useSecurityT();
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!visible) return;
    setQuestion(current ?? '');
    setAnswer('');
    setPassword('');
    setErrors({});
  }, [visible, current]);

  const save = async () => {
    const found = {
      question: question.trim() ? undefined : m.questionEmpty,
      answer: answer.trim() ? undefined : m.answerEmpty,
      password: password ? undefined : m.passwordRequired,
    };
    setErrors(found);
    if (found.question || found.answer || found.password) return;
    setBusy(true);
    try {
      onSaved(await securityApi.setQuestion(password, question.trim(), answer));
    } catch (e) {
      const err = e as ApiError;
      const fields = err.fields ?? {};
      // A wrong password (403) has no field: say it under the password.
      setErrors(Object.keys(fields).length > 0 ? { ...fields } : { password: err.message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} bodyClassName="mw-sheet mw-sec-sheet" destroyOnClose>
      <div className="mw-sheet-title">{m.questionTitle}</div>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="mw-sec-hint">{m.securityQuestionHint}</div>
        <Field label={m.question} name="question" autoComplete="off" maxLength={100} placeholder={m.questionPlaceholder} value={question} onChange={(v) => { setQuestion(v); setErrors({}); }} error={errors.question} clearable />
        <Field label={m.answer} name="answer" autoComplete="off" placeholder={m.answerPlaceholder} maxLength={200} value={answer} onChange={(v) => { setAnswer(v); setErrors({}); }} error={errors.answer} testId="answer-input" />
        <Field label={m.password} name="password" type="password" autoComplete="current-password" placeholder={m.enterPassword} value={password} onChange={(v) => { setPassword(v); setErrors({}); }} error={errors.password} />
        <div className="mw-sheet-actions">
          <Button onClick={onClose}>{m.cancel}</Button>
          <Button type="submit" color="primary" loading={busy} data-testid="question-save">{m.save}</Button>
        </div>
        {current && (
          <div className="mw-sheet-actions">
            <Button block color="danger" fill="none" onClick={onRemove} data-testid="question-remove">{m.removeQuestion}</Button>
          </div>
        )}
      </form>
    </Popup>
  );
}
