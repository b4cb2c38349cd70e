import { createHash } from 'node:crypto';
import type { WestCaptcha, WestChallenge, WestSession } from '@mailwing/shared';
import type { TestServer } from './harness.js';
import { codeFromInbox } from './security-helpers.js';

/**
 * Solves the storefront's proof-of-work captcha and returns the payload to send: the number whose
 * SHA-256 after the salt is the challenge (ALTCHA v1). Searched with node:crypto's synchronous hash:
 * altcha-lib's own solver awaits WebCrypto once per number, ~4 s a captcha on the CI machine.
 */
export async function solveCaptcha(s: TestServer): Promise<string> {
  const c = (await s.get<WestCaptcha>('/h5/west/captcha')).data;
  if (c.algorithm !== 'SHA-256') throw new Error(`unexpected captcha algorithm ${c.algorithm}`);
  const max = c.maxnumber ?? 1_000_000;
  let number = 0;
  while (number <= max && createHash('sha256').update(c.salt + number).digest('hex') !== c.challenge) number++;
  if (number > max) throw new Error('captcha not solved');
  return Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number, salt: c.salt, signature: c.signature })).toString('base64');
}

/**
 * Registers a customer whose address is a demo mailbox (so the code can be read from
 * its Inbox) and returns the west token. `mailboxToken` is that mailbox's own session.
 */
export async function registerCustomer(s: TestServer, email: string, mailboxToken: string, password = 'store-pass-1'): Promise<string> {
  const sent = await s.post('/h5/west/register-code', { email, captcha: await solveCaptcha(s) });
  if (sent.code !== 200) throw new Error(JSON.stringify(sent));
  const { code } = await codeFromInbox(s, mailboxToken);
  const r = await s.post<WestSession>('/h5/west/register', { email, password, code, agree: 1 });
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data.token;
}

/** Password and the mailed code: a west session. */
export async function westLogin(s: TestServer, email: string, mailboxToken: string, password = 'store-pass-1'): Promise<string> {
  const c = await s.post<WestChallenge>('/h5/west/login', { email, password });
  if (c.code !== 200) throw new Error(JSON.stringify(c));
  const { code } = await codeFromInbox(s, mailboxToken);
  const r = await s.post<WestSession>('/h5/west/login-verify', { ticket: c.data.ticket, code });
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data.token;
}
