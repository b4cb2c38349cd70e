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

// Questions people commonly set; a decoy that offers a question asks one of these.
const QUESTIONS = [
  '我的小学叫什么名字？', '我母亲的名字是？', '我的出生地是？', '我最喜欢的电影是？', '我的第一只宠物叫什么？', '我父亲的生日是？',
  '我高中班主任的名字？', '我最好的朋友是谁？', 'What was the name of your first pet?', 'In what city were you born?',
  "What is your mother's maiden name?", 'What was your first school?',
];

export interface DecoyWays { ways: ('email' | 'question')[]; backupEmail?: string; question?: string }

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
  const backupEmail = `${LETTERS[h[1]! % LETTERS.length]}***@${PROVIDERS[h[2]! % PROVIDERS.length]}`;
  const question = QUESTIONS[h[4]! % QUESTIONS.length]!;
  // Every shape a real account can have, so no answer marks an account as real
  // (issue 12: decoys that never had a question made "question" a tell).
  if (h[3]! < 20) return { ways: ['question'], question };
  if (h[3]! < 60) return { ways: ['email', 'question'], backupEmail, question };
  return { ways: ['email'], backupEmail };
}
