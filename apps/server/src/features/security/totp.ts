import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

// RFC 6238 with the parameters every authenticator app supports: SHA-1, 6 digits,
// 30-second steps. One step either side is accepted for clock drift (§5.2).
const PERIOD = 30;
const DIGITS = 6;
const WINDOW = 1;
export const TOTP_ISSUER = 'Mailwing';

const totp = (secret: string, label = '') =>
  new TOTP({ issuer: TOTP_ISSUER, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD });

/** A new 160-bit secret (the RFC 4226 §4 recommended length), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The Key Uri Format link the QR code carries: otpauth://totp/Mailwing:alice@…?secret=…&issuer=Mailwing */
export function totpUri(secret: string, address: string): string {
  return totp(secret, address).toString();
}

/** The time step the code belongs to, or null when it matches none in the window. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  const t = totp(secret);
  const delta = t.validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : t.counter({ timestamp: now }) + delta;
}

// ---- recovery codes ----

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const RECOVERY_CODE_COUNT = 10;

/** Ten characters of [a-z0-9] (about 51 bits), shown as xxxxx-xxxxx. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * Stored as a salted SHA-256, not scrypt: the row is found by its hash, and a code
 * is random, single-use and only good behind the password, unlike a chosen password.
 */
export function recoveryHash(userId: number, normalised: string): string {
  return createHash('sha256').update(`recovery:${userId}:${normalised}`).digest('hex');
}

// ---- six-digit e-mail codes ----

export function newSixDigitCode(): string {
  return String(randomInt(1_000_000)).padStart(6, '0');
}

export function codeHash(userId: number, purpose: string, code: string): string {
  return createHash('sha256').update(`code:${userId}:${purpose}:${code}`).digest('hex');
}
