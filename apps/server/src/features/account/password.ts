import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// scrypt from Node's crypto (DESIGN.md: scrypt or argon2). Parameters are stored
// with each hash so they can be raised later without breaking old hashes.
/** scrypt's cost for new hashes unless configured (PASSWORD_SCRYPT_N, config.ts). */
export const DEFAULT_SCRYPT_N = 16384;
let N = DEFAULT_SCRYPT_N;
const R = 8;
const P = 1;
const KEYLEN = 32;

function derive(password: string, salt: Buffer, opts: ScryptOptions & { N: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEYLEN, { ...opts, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * The cost of hashes made from now on, set once at start from the configuration (openServices).
 * Production refuses anything under the default (config.ts); test rigs lower it, where a thousand-row
 * CSV import or a login per test would otherwise spend most of the suite's CPU on scrypt.
 */
export function usePasswordCost(n: number): void {
  N = n;
}

export function passwordCost(): number {
  return N;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of nothing, checked when the account does not exist, so both paths take the same time:
 * at the cost new hashes get, like the accounts it stands in for.
 */
export function dummyHash(): string {
  return `scrypt$${N}$${R}$${P}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;
}
