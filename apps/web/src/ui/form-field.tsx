import { Input } from 'antd-mobile';

interface Props {
  label: string;
  name: string;
  type: 'email' | 'password' | 'text';
  autoComplete: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  clearable?: boolean;
}

/** A labelled input with its validation message under it, as the account forms use. */
export function FormField({ label, error, ...input }: Props) {
  return (
    <>
      <label className="mw-field">
        <span className="mw-field-label">{label}</span>
        <Input {...input} />
      </label>
      {error && <div className="mw-field-error" role="alert">{error}</div>}
    </>
  );
}
