import { PasscodeInput } from 'antd-mobile';
import { isSixDigitCode, VERIFY_CODE_LENGTH } from '@mailwing/shared';
import './security.css';

/** Spec §5: a verification code is six digits only. Returns the message to show, or ''. */
export function codeProblem(code: string, m: { codeEmpty: string; codeSixDigits: string }): string {
  if (!code.trim()) return m.codeEmpty;
  return isSixDigitCode(code.trim()) ? '' : m.codeSixDigits;
}

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** Called when the sixth digit is in: pages submit at once. */
  onFill?: (value: string) => void;
  error?: string;
  label: string;
}

/** Six boxes over a numeric keyboard (the phone's own: a pasted or autofilled code works). */
export function CodeInput({ value, onChange, onFill, error, label }: Props) {
  return (
    <div className="mw-code">
      <div className="mw-code-label">{label}</div>
      <PasscodeInput
        data-testid="code-input"
        length={VERIFY_CODE_LENGTH}
        plain
        seperated
        value={value}
        error={Boolean(error)}
        onChange={(v) => onChange(v.replace(/\D/g, '').slice(0, VERIFY_CODE_LENGTH))}
        onFill={onFill}
      />
      {error && <div className="mw-field-error" role="alert" data-field="code">{error}</div>}
    </div>
  );
}
