import type { VerifyWay } from '@mailwing/shared';
import type { SecurityMessages as Words } from '../i18n/security';

// Form rules of the account-security pages (spec §5), apart from the pages so
// they can be tested without a browser.

const WAYS: readonly VerifyWay[] = ['totp', 'email', 'recovery'];

/** The ways a challenge offers, from ?ways=totp,email,recovery; an authenticator and its recovery codes at least. */
export function challengeWays(param: string | null): VerifyWay[] {
  const asked = (param ?? '').split(',').filter((w): w is VerifyWay => (WAYS as readonly string[]).includes(w));
  return asked.length > 0 ? WAYS.filter((w) => asked.includes(w)) : ['totp', 'recovery'];
}

/** A recovery code as typed (abcde-12345, any case, spaces) made canonical; '' when it cannot be one. */
export function normaliseRecoveryCode(input: string): string {
  const plain = input.trim().toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z0-9]{10}$/.test(plain) ? plain : '';
}

export type PasswordField = 'old' | 'password' | 'confirm';
export type PasswordProblem = 'required' | 'short' | 'mismatch';

/**
 * Spec §5: every entry is required and the two new ones must match ("password
 * empty or repeat mismatch"); our length rule is 8 to 128. `old` is checked
 * only when given (the reset form has none).
 */
export function passwordProblems(input: { old?: string; password: string; confirm: string }): Partial<Record<PasswordField, PasswordProblem>> {
  const out: Partial<Record<PasswordField, PasswordProblem>> = {};
  if (input.old !== undefined && !input.old) out.old = 'required';
  if (!input.password) out.password = 'required';
  else if (input.password.length < 8 || input.password.length > 128) out.password = 'short';
  if (!input.confirm || (input.password && input.confirm !== input.password)) out.confirm = 'mismatch';
  return out;
}

/** The words for a password problem: spec §8's for an empty or unrepeated one, ours for the length. */
export function passwordMessage(
  m: { passwordMismatch: string; passwordTooShort: string; passwordRequired: string },
  problem: PasswordProblem | undefined,
  field: PasswordField = 'password',
): string | undefined {
  if (!problem) return undefined;
  if (problem === 'short') return m.passwordTooShort;
  return field === 'old' ? m.passwordRequired : m.passwordMismatch;
}

/** The secret in groups of four, as authenticator apps show it. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** A recovery code shown as xxxxx-xxxxx. */
export function showRecoveryCode(code: string): string {
  const plain = code.replace(/[\s-]/g, '');
  return plain.length === 10 ? `${plain.slice(0, 5)}-${plain.slice(5)}` : code;
}

/**
 * The server answers in English (apps/server/src/features/security/policy.ts);
 * its known refusals are shown in the UI language, anything else as sent.
 */
export function securityText(m: Words, text: string): string {
  const known: Record<string, string> = {
    'The verification has expired. Please log in again.': m.srvTicketExpired,
    'Too many wrong codes. Please log in again.': m.srvTicketSpent,
    'The verification code is incorrect.': m.srvCodeWrong,
    'This code has already been used. Wait for the next code from your authenticator.': m.srvCodeReplayed,
    'The recovery code is incorrect or has already been used.': m.srvRecoveryWrong,
    'The verification code is incorrect or has expired.': m.srvEmailCodeWrong,
    'The answer is incorrect.': m.srvAnswerWrong,
    'The password is incorrect.': m.srvPasswordWrong,
    'The old password is incorrect.': m.srvOldPasswordWrong,
    'No backup address is set for this account.': m.srvNoBackupEmail,
    'The password reset has expired. Please start again.': m.srvResetExpired,
    'must be another address than this mailbox': m.srvSameAddress,
    // SecurityMessages (packages/shared), written out: importing the value would
    // bring zod into this chunk. security-forms.test.ts checks they agree.
    'code is empty': m.codeEmpty,
    'must be six digits': m.codeSixDigits,
    'answer cannot be empty': m.answerEmpty,
    'password empty or repeat mismatch': m.passwordMismatch,
    'must be 8 to 128 characters': m.passwordTooShort,
    'is not a valid mailbox address': m.emailInvalid,
    'is not a valid recovery code': m.recoveryInvalid,
  };
  const wait = /^Too many failed attempts\. Try again in (\d+) seconds\.$/.exec(text);
  return known[text] ?? (wait ? m.srvTooMany(Number(wait[1])) : text);
}

/** securityText for an optional text (a field that may have no error). */
export function localText(m: Words, text: string | undefined): string | undefined {
  return text === undefined ? undefined : securityText(m, text);
}

/** A 422's field errors in the UI language. */
export function localFields(m: Words, fields: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, securityText(m, v)]));
}
