import { Secret, TOTP } from 'otpauth';
import type { Mail, MailList, RecoveryCodes, TotpSetup } from '@mailwing/shared';
import type { TestServer } from './harness.js';

/** The authenticator app's code for a secret, at a time (default now). */
export const totpCode = (secret: string, at = Date.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });

/** The six-digit code of a mail body, either language. */
export const codeIn = (text: string) => /Verification code: (\d{6})/.exec(text)?.[1] ?? null;

/** Reads the newest code mail in a mailbox's Inbox through the API, as its owner would. */
export async function codeFromInbox(s: TestServer, token: string): Promise<{ code: string; mail: Mail }> {
  const list = await s.get<MailList>('/h5/mail/list', { mid: '0', size: 20 }, token);
  const summary = list.data.list.find((m) => m.subject === 'Mailwing 验证码 / Verification code');
  if (!summary) throw new Error('no code mail in the Inbox');
  const mail = (await s.get<Mail>('/h5/read/index', { mid: summary.id }, token)).data;
  const code = codeIn(mail.text);
  if (!code) throw new Error(`no code in ${mail.text}`);
  return { code, mail };
}

/** Turns the authenticator on for the token's user; forgets the enabling step so the next code is accepted. */
export async function enableTotp(s: TestServer, token: string, email: string): Promise<{ secret: string; codes: string[] }> {
  const begin = await s.post<TotpSetup>('/h5/setting/totp-begin', { password: 'demo1234' }, token);
  if (begin.code !== 200) throw new Error(JSON.stringify(begin));
  const enable = await s.post<RecoveryCodes>('/h5/setting/totp-enable', { code: totpCode(begin.data.secret) }, token);
  if (enable.code !== 200) throw new Error(JSON.stringify(enable));
  await forgetStep(s, email);
  return { secret: begin.data.secret, codes: enable.data.codes };
}

/** Lets the current step be used again: tests log in several times within one 30-second step. */
export async function forgetStep(s: TestServer, email: string): Promise<void> {
  await s.rt.services.db.updateTable('users').set({ totp_last_step: null }).where('email', '=', email).execute();
}

/** Failure counters are shared by every test (all come from 127.0.0.1); each test starts clean. */
export async function clearLimits(s: TestServer): Promise<void> {
  await s.rt.services.db.deleteFrom('auth_failures').execute();
}

export interface Challenge { verify: true; ticket: string; ways: string[]; backupEmail?: string }
