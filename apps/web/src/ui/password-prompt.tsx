import { useState, type ReactNode } from 'react';
import { Button, Dialog } from 'antd-mobile';
import type { ApiError } from '../api/request';
import { useSecurityT } from '../i18n/security';
import { Field } from './field';
import './security.css';

interface Options<T> {
  title: string;
  /** A sentence under the title: what happens after the password. */
  hint?: ReactNode;
  confirmText?: string;
  danger?: boolean;
  /** Runs with the password; a rejection keeps the dialog open with its message. */
  action: (password: string) => Promise<T>;
}

function PasswordPrompt<T>({ options, onDone, onCancel }: { options: Options<T>; onDone: (value: T) => void; onCancel: () => void }) {
  const m = useSecurityT();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!password) return setError(m.passwordRequired);
    setBusy(true);
    try {
      onDone(await options.action(password));
    } catch (e) {
      const err = e as ApiError;
      setError(err.fields?.password ?? err.message);
      setBusy(false);
    }
  };

  return (
    <form
      className="mw-dialog-form mw-password-prompt"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {options.hint && <div className="mw-password-prompt-hint">{options.hint}</div>}
      <Field
        label={m.password}
        type="password"
        name="password"
        autoComplete="current-password"
        placeholder={m.enterPassword}
        autoFocus
        value={password}
        onChange={(v) => {
          setPassword(v);
          setError('');
        }}
        error={error}
        testId="password-input"
      />
      <div className="mw-sheet-actions">
        <Button onClick={onCancel} disabled={busy}>{m.cancel}</Button>
        <Button type="submit" color={options.danger ? 'danger' : 'primary'} loading={busy} data-testid="password-confirm">
          {options.confirmText ?? m.confirm}
        </Button>
      </div>
    </form>
  );
}

/**
 * Asks for the account password before a sensitive change and runs the action
 * with it. Resolves with the action's result, or null when cancelled.
 */
export function askPassword<T>(options: Options<T>): Promise<T | null> {
  return new Promise((resolve) => {
    let settled = false;
    const handler = Dialog.show({
      title: options.title,
      closeOnMaskClick: true,
      content: (
        <PasswordPrompt
          options={options}
          onDone={(value) => {
            settled = true;
            resolve(value);
            handler.close();
          }}
          onCancel={() => handler.close()}
        />
      ),
      afterClose: () => {
        if (!settled) resolve(null);
      },
    });
  });
}
