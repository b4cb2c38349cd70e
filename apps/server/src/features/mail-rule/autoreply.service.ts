import { randomBytes } from 'node:crypto';
import type { AutoReply, AutoReplyInput } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import * as outbox from '../../delivery/outbox.repository.js';
import { invalid } from '../../errors.js';
import { resolveMany } from '../account/account.repository.js';
import type { ParsedContent } from '../message/mail-parse.js';
import * as repo from './autoreply.repository.js';
import { mailboxes } from './mail-rule.repository.js';
import type { RuleEngine, RuleRecipient } from './rule-engine.js';
import { isAutomatic, type RuleMail } from './rule-evaluator.js';
import { autoReplyMime } from './rule-mail.js';

/** The user's calendar day at `now` in their zone, as YYYY-MM-DD. */
export function dayIn(zone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function validZone(zone: string): boolean {
  try {
    dayIn(zone, new Date(0));
    return true;
  } catch {
    return false;
  }
}

// RFC 3834 §2: never answer robots, list managers or bounce senders.
const ROBOT = /^(mailer-daemon|postmaster|noreply|no-reply|.*-request|owner-.*)$/i;

export function inWindow(s: repo.AutoReplyRow, now: Date): boolean {
  const today = dayIn(s.time_zone, now);
  return s.enabled && (!s.start_date || today >= s.start_date) && (!s.end_date || today <= s.end_date);
}

/**
 * Auto-reply (vacation). Who gets an answer is decided with the delivery; the answer
 * itself goes after the commit, once the per-sender log row is claimed, through local
 * delivery or the outbound queue like any mail. It is sent with a null return path
 * (RFC 3834 §3.3), so nothing answers it, and with Auto-Submitted: auto-replied.
 */
export class AutoReplyPlanner {
  private readonly cache = new Map<number, { row: repo.AutoReplyRow | null; expires: number }>();

  constructor(private readonly engine: RuleEngine) {}

  async get(userId: number): Promise<AutoReply> {
    const r = await repo.getAutoReply(this.engine.d.db, userId);
    return {
      enabled: r?.enabled ?? false, start: r?.start_date ?? '', end: r?.end_date ?? '', timeZone: r?.time_zone ?? 'UTC',
      subject: r?.subject ?? '', body: r?.body ?? '', intervalDays: r?.interval_days ?? 4,
    };
  }

  async save(userId: number, v: AutoReplyInput): Promise<AutoReply> {
    if (!validZone(v.timeZone)) throw invalid('timeZone', 'is not a known time zone', 'calendar.tz_invalid');
    if (v.start && v.end && v.end < v.start) throw invalid('end', 'The end date is before the start date', 'autoreply.end_before_start');
    if (v.enabled && !v.body.trim()) throw invalid('body', 'Write the reply text', 'autoreply.body_required');
    await repo.saveAutoReply(this.engine.d.db, {
      user_id: userId, enabled: v.enabled, start_date: v.start || null, end_date: v.end || null, time_zone: v.timeZone,
      subject: v.subject, body: v.body, interval_days: v.intervalDays,
    }, this.engine.d.now());
    this.cache.delete(userId);
    return this.get(userId);
  }

  private async settings(db: Db, userIds: number[]): Promise<repo.AutoReplyRow[]> {
    const at = Date.now();
    const out: repo.AutoReplyRow[] = [];
    const missing = userIds.filter((u) => {
      const hit = this.cache.get(u);
      if (!hit || hit.expires <= at) return true;
      if (hit.row) out.push(hit.row);
      return false;
    });
    if (missing.length > 0) {
      const rows = await repo.activeAutoReplies(db, missing);
      for (const u of missing) {
        const row = rows.find((r) => r.user_id === u) ?? null;
        this.cache.set(u, { row, expires: at + (this.engine.d.cacheMs ?? 5_000) });
        if (row) out.push(row);
      }
    }
    return out;
  }

  /** The replies this delivery should send, each to run after the commit. */
  async plan(db: Db, content: ParsedContent, mail: RuleMail, envelopeFrom: string, recipients: RuleRecipient[]): Promise<{ userId: number; send: () => Promise<void> }[]> {
    const sender = envelopeFrom.toLowerCase();
    if (recipients.length === 0) return [];
    const now = this.engine.d.now();
    const active = (await this.settings(db, recipients.map((r) => r.userId))).filter((s) => inWindow(s, now));
    // The cheap checks come after the settings read so that mail to mailboxes without auto-reply costs one cached lookup.
    if (active.length === 0 || !sender || isAutomatic(mail) || ROBOT.test(sender.split('@')[0] ?? '')) return [];
    const own = await repo.ownAddresses(db, active.map((s) => s.user_id));
    const named = new Set(mail.recipients);
    return active.filter((s) => (own.get(s.user_id) ?? []).some((a) => named.has(a)) && !(own.get(s.user_id) ?? []).includes(sender))
      .map((s) => ({ userId: s.user_id, send: () => this.reply(s, sender, content) }));
  }

  private async reply(s: repo.AutoReplyRow, to: string, original: ParsedContent): Promise<void> {
    const { db, blobs, now } = this.engine.d;
    const at = now();
    if (!(await repo.claimReply(db, s.user_id, to, at, s.interval_days))) return;
    const [box] = await mailboxes(db, [s.user_id]);
    if (!box) return;
    const raw = await autoReplyMime(box, to, original, s, at);
    const target = (await resolveMany(db, [to])).get(to)!;
    if (target.targets.length > 0) return this.engine.deliverLocal(raw, '', target.targets.map((t) => t.userId));
    if (target.hosted) return;
    const staged = await blobs.store.stage(raw);
    try {
      await db.transaction().execute(async (trx) => {
        await blobs.reference(trx, [{ staged, n: 0 }]);
        await outbox.enqueue(trx, [{
          messageId: null, senderId: null, companyId: box.companyId, blobHash: staged.hash, mailFrom: '', rcpt: to,
          idempotencyKey: `autoreply:${s.user_id}:${randomBytes(12).toString('hex')}:${to}`,
        }]);
      });
    } finally {
      await blobs.store.release(staged);
    }
    this.engine.d.onQueued();
  }
}
