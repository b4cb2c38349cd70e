import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { SystemMailer } from '../../delivery/system-mailer.js';
import * as repo from './quota-notice.repository.js';

const LEASE_MS = 5 * 60_000;
export const QUOTA_NOTICE_POLL_MS = 15_000;
const MB = 1024 * 1024;

/**
 * Sends the quota warnings (85/90/95 % and full) to the user and to the admins who
 * manage them. Which warning is due is decided durably in the database (migration 018:
 * one row per crossing); this only delivers rows, and marks each sent once mailed.
 */
export class QuotaNoticeService {
  constructor(private readonly d: { db: Db; mailer: SystemMailer; clock?: () => Date; log?: Logger }) {}

  async tick(): Promise<number> {
    const now = this.d.clock?.() ?? new Date();
    const due = await repo.claimNotices(this.d.db, now, new Date(now.getTime() + LEASE_MS), 20);
    for (const n of due) {
      const domain = n.email.split('@')[1]!;
      const usage = `${(n.used / MB).toFixed(1)} MB / ${(n.quota_bytes / MB).toFixed(1)} MB`;
      const full = n.level >= 100;
      const subject = full ? `邮箱已满 Mailbox full: ${n.email}` : `邮箱容量已用 ${n.level}% Mailbox ${n.level}% full: ${n.email}`;
      const text = full
        ? `${n.email} 的邮箱已满（${usage}），新邮件会被暂缓投递，直到腾出空间。\n\nThe mailbox ${n.email} is full (${usage}). New mail is held back (452 4.2.2) until space is freed.`
        : `${n.email} 的邮箱已使用 ${n.level}%（${usage}）。\n\nThe mailbox ${n.email} has used ${n.level}% of its quota (${usage}).`;
      for (const to of [n.email, ...(await repo.adminsOf(this.d.db, n.user_id))]) {
        await this.d.mailer.send({ to, domain, subject, text });
      }
      await repo.markSent(this.d.db, n.id, this.d.clock?.() ?? new Date());
    }
    return due.length;
  }
}
