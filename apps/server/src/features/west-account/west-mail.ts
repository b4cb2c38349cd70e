import type { SystemMail } from '../../delivery/system-mailer.js';

// The storefront's mails: Chinese first, then English, like the mailbox's code mail.

const MINUTES = 10;

export function westCodeMail(to: string, domain: string, purpose: 'register' | 'login', code: string): SystemMail {
  const zh = purpose === 'register' ? '注册账号' : '登录';
  const en = purpose === 'register' ? 'registering' : 'signing in';
  return {
    to, domain,
    subject: 'Mailwing 验证码 / Verification code',
    text: [
      `您好，您正在用 ${to} ${zh}（企业邮箱购买中心）。`, '', `验证码：${code}`, '',
      `验证码 ${MINUTES} 分钟内有效，只能使用一次。请勿告诉任何人。如果这不是您本人的操作，请忽略本邮件。`, '', '----', '',
      `Hello, this code is for ${en} at the Mailwing store with ${to}.`, '', `Verification code: ${code}`, '',
      `It is valid for ${MINUTES} minutes and works once. Never share it with anyone. If you did not ask for it, ignore this message.`, '',
    ].join('\n'),
  };
}

/**
 * Sent instead of a code when the address already has an account: only the owner of
 * the mailbox learns that, while the page answers exactly as for a new address.
 */
export function westAlreadyRegisteredMail(to: string, domain: string): SystemMail {
  return {
    to, domain,
    subject: 'Mailwing 验证码 / Verification code',
    text: [
      `您好，有人（可能是您）想用 ${to} 在企业邮箱购买中心注册，但这个地址已经注册过了。`,
      '请直接登录；忘记密码时请联系客服。如果这不是您本人的操作，请忽略本邮件。', '', '----', '',
      `Hello, someone (perhaps you) tried to register at the Mailwing store with ${to}, but this address already has an account.`,
      'Please log in instead. If you did not ask for this, ignore this message.', '',
    ].join('\n'),
  };
}
