import type { VerifyWay } from '@mailwing/shared';

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
