import type { Db } from '../../db/connect.js';
import type { SystemMailer } from '../../delivery/system-mailer.js';
import type { AccountRow } from './collect.repository.js';

/** The mail a user gets when collection from one of their mailboxes is paused (in both languages: it is read outside the app too). */
export function pauseNotice(db: Db, mailer: SystemMailer) {
  return async (userId: number, a: AccountRow): Promise<void> => {
    const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    if (!user) return;
    const what = `${a.username} @ ${a.host}`;
    await mailer.send({
      to: user.email, domain: user.email.split('@')[1] ?? '',
      subject: `收取外部邮箱已暂停 / Collecting mail paused: ${what}`,
      text: [
        `登录 ${what} 连续失败 5 次，已暂停收取。请在“设置 > 邮件规则 > 收取外部邮箱”中修改密码或点击“恢复”。`,
        '',
        `Logging in to ${what} failed 5 times in a row, so collecting from it is paused. Change its password or press "Resume" under Settings > Mail rules > Other mailboxes.`,
      ].join('\n'),
    });
  };
}
