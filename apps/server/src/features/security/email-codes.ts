import type { CodeSent } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import type { SystemMail, SystemMailer } from '../../delivery/system-mailer.js';
import { FailureLimiter } from '../auth/rate-limit.js';
import { maskEmail } from './mask.js';
import { CODE_MAX_ATTEMPTS, CODE_TTL_SECONDS, Limits, RESEND_SECONDS, tooSoon, WINDOW_SECONDS } from './policy.js';
import * as repo from './security.repository.js';
import { codeHash, newSixDigitCode } from './totp.js';

const PURPOSE_TEXT: Record<repo.CodePurpose, { zh: string; en: string }> = {
  login: { zh: '登录验证', en: 'signing in' },
  reset: { zh: '重置密码', en: 'resetting your password' },
  backup: { zh: '设置备用邮箱', en: 'setting this address as your backup address' },
};

/** The code mail: Chinese first, then English, as the product is used in both. */
export function codeMail(v: { to: string; account: string; purpose: repo.CodePurpose; code: string }): SystemMail {
  const p = PURPOSE_TEXT[v.purpose];
  const minutes = CODE_TTL_SECONDS / 60;
  return {
    to: v.to,
    domain: v.account.split('@')[1] ?? '',
    subject: 'Mailwing 验证码 / Verification code',
    text: [
      `您好，您正在为邮箱 ${v.account} ${p.zh}。`,
      '',
      `验证码：${v.code}`,
      '',
      `验证码 ${minutes} 分钟内有效，只能使用一次。请勿告诉任何人。`,
      '如果这不是您本人的操作，请忽略本邮件，并考虑修改密码。',
      '',
      '----',
      '',
      `Hello, this code is for ${p.en} for the mailbox ${v.account}.`,
      '',
      `Verification code: ${v.code}`,
      '',
      `It is valid for ${minutes} minutes and works once. Never share it with anyone.`,
      'If you did not ask for it, ignore this message and consider changing your password.',
      '',
    ].join('\n'),
  };
}

/** Six-digit codes by e-mail: one live code per (user, purpose), hashed, short-lived, few attempts. */
export class EmailCodes {
  private readonly limiter: FailureLimiter;

  constructor(private readonly db: Db, private readonly mailer: SystemMailer) {
    this.limiter = new FailureLimiter(db, WINDOW_SECONDS);
  }

  /**
   * Stores a fresh code and mails it. Refused (429) within RESEND_SECONDS of the last
   * one, unless `resendChecked` says the caller already enforced that (reset does,
   * per address, so that unknown addresses behave the same).
   */
  async send(user: { id: number; email: string }, purpose: repo.CodePurpose, address: string, ip: string, resendChecked = false): Promise<CodeSent> {
    // Reserved first, so concurrent requests cannot all pass the count (finding 3).
    const send = await this.limiter.reserve([Limits.codeIp(ip)]);
    const code = newSixDigitCode();
    const wait = await repo.storeCode(this.db, {
      userId: user.id, purpose, address, codeHash: codeHash(user.id, purpose, code), ttlSeconds: CODE_TTL_SECONDS, resendSeconds: resendChecked ? 0 : RESEND_SECONDS,
    });
    if (wait > 0) {
      // Nothing was sent, so it does not count as a send.
      await send.succeeded();
      throw tooSoon(wait);
    }
    try {
      await this.mailer.send(codeMail({ to: address, account: user.email, purpose, code }));
    } catch (err) {
      // A code nobody received must not hold the user back for a minute.
      await repo.dropCode(this.db, user.id, purpose);
      throw err;
    }
    return { sent: true, resendIn: RESEND_SECONDS, to: maskEmail(address) };
  }

  /** True when the code is right (it is then spent); `address` pins it to the address it was sent to. */
  spend(userId: number, purpose: repo.CodePurpose, code: string, address?: string): Promise<boolean> {
    return repo.spendCode(this.db, { userId, purpose, codeHash: codeHash(userId, purpose, code), maxAttempts: CODE_MAX_ATTEMPTS, address });
  }

  /** The limiter of code sends by client address, for callers that must count a send that mailed nothing (a decoy). */
  async countSend(ip: string): Promise<void> {
    await this.limiter.take([Limits.codeIp(ip)]);
  }
}
