import { Input } from 'antd-mobile';

interface Props {
  label: string;
  name: string;
  type?: 'email' | 'password' | 'text';
  autoComplete: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  clearable?: boolean;
  maxLength?: number;
  autoFocus?: boolean;
  testId?: string;
}

/**
 * A labelled input with its message under it, in form-field.tsx's look, for
 * the pages that load on demand. Importing form-field.tsx from a lazy page
 * splits antd-mobile's Input out of the first-screen chunk (about 1.2 KB of
 * the budget in budget.test.ts), so these pages use this one.
 */
export function Field({ label, error, testId, type = 'text', ...input }: Props) {
  return (
    <>
      <label className="mw-field">
        <span className="mw-field-label">{label}</span>
        <Input type={type} data-testid={testId} {...input} />
      </label>
      {error && <div className="mw-field-error" role="alert" data-field={input.name}>{error}</div>}
    </>
  );
}
