import { createHmac } from 'node:crypto';

/** a***@example.com: enough for the owner to recognise, too little for anyone else to use. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${[...address.slice(0, at)][0]}***${address.slice(at)}`;
}

// Where people keep their second address; a decoy's backup looks like one of these.
const PROVIDERS = ['qq.com', '163.com', '126.com', 'gmail.com', 'outlook.com', 'foxmail.com', 'hotmail.com', 'sina.com', 'icloud.com', 'yahoo.com'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export interface DecoyWays { ways: ('email')[]; backupEmail?: string }

/**
 * What a password reset shows for an address with no account behind it, so the
 * answer does not tell who has a mailbox here. Keyed by an HMAC with an
 * installation secret: the same address always gets the same answer, and nobody
 * without the secret can tell a decoy from a real account by its shape. Most get
 * a masked backup address, some none (as real accounts that never set one).
 */
export function decoyWays(secret: string, address: string): DecoyWays {
  const h = createHmac('sha256', secret).update(address.toLowerCase()).digest();
  if (h[0]! < 26) return { ways: [] };
  return { ways: ['email'], backupEmail: `${LETTERS[h[1]! % LETTERS.length]}***@${PROVIDERS[h[2]! % PROVIDERS.length]}` };
}
