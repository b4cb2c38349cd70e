import { SystemFolder, type PushPayload } from '@mailwing/shared';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { composeMime } from '../message/compose-mime.js';
import type { IngestService } from '../message/ingest.service.js';
import { expand } from './recurrence.js';
import { specOf } from './event-fields.js';
import * as repo from './reminder.repository.js';
import { formatWall, wallOf } from './zoned-time.js';

export interface ReminderDeps {
  db: Db;
  ingest: IngestService;
  /** Web Push to the user's devices; best-effort, after the job is recorded as sent. */
  push?: { notifyUser(userId: number, payload: PushPayload): Promise<void> };
  hostname: string;
  now?: () => Date;
  log?: Logger;
  /** Runs after a reminder mail is filed and before the job is marked sent: the window a crash test aims at. */
  onMailed?: (jobId: number) => Promise<void>;
}

// Planned a day or two ahead: each series is re-planned about once a day, and a job exists long before it is due.
const PLAN_AHEAD_MS = 2 * 86_400_000;
const REPLAN_MS = 86_400_000;
/** Well inside spec's promise that a reminder arrives within 60 s of its time. */
export const REMINDER_POLL_MS = 15_000;
/** A claimed job not finished in this time (its node died) is claimed again. */
export const LEASE_MS = 30_000;

/**
 * Durable reminders: jobs keyed UNIQUE (event, occurrence, offset), planned from the same
 * expansion the calendar shows, claimed with FOR UPDATE SKIP LOCKED under a lease.
 * Exactly once: the mail carries a Message-ID made from the job id, so a node that died
 * after filing it but before marking the job finds it there and does not file it again.
 */
export class ReminderService {
  private readonly now: () => Date;

  constructor(private readonly d: ReminderDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** One round of work: plan, then send what is due. Returns how much was done (the queue runner loops while > 0). */
  async tick(): Promise<number> {
    return (await this.plan()) + (await this.sendDue());
  }

  async plan(limit = 100): Promise<number> {
    const now = this.now();
    const until = new Date(now.getTime() + PLAN_AHEAD_MS);
    return this.d.db.transaction().execute(async (trx) => {
      const rows = await repo.seriesToPlan(trx, now, new Date(now.getTime() + REPLAN_MS), limit);
      for (const r of rows) {
        const offset = r.reminder_min * 60_000;
        const from = Math.max(r.reminders_until?.getTime() ?? 0, now.getTime());
        const jobs = expand(specOf(r), from + offset, until.getTime() + offset)
          .filter((o) => o.start - offset >= from && o.start - offset < until.getTime())
          .map((o) => ({ event_id: r.id, user_id: r.user_id, occurrence_at: new Date(o.start), offset_min: r.reminder_min, due_at: new Date(o.start - offset) }));
        await repo.addJobs(trx, jobs);
        await repo.plannedUntil(trx, r.id, until);
      }
      return rows.length;
    });
  }

  async sendDue(limit = 50): Promise<number> {
    const now = this.now();
    const jobs = await repo.claimDue(this.d.db, now, new Date(now.getTime() + LEASE_MS), limit);
    for (const job of jobs) {
      try {
        await this.send(job);
      } catch (err) {
        // The lease runs out and another round tries again.
        this.d.log?.warn({ err, job: job.id }, 'calendar reminder not sent');
      }
    }
    return jobs.length;
  }

  private async send(job: repo.ClaimedJob): Promise<void> {
    const messageId = `<cal-reminder-${job.id}@${this.d.hostname}>`;
    const when = formatWall(wallOf(job.occurrence_at.getTime(), job.tz)).slice(0, 16).replace('T', ' ');
    if (!(await repo.mailExists(this.d.db, job.user_id, messageId))) {
      const from = `calendar@${this.d.hostname}`;
      const raw = await composeMime({
        from: { name: 'Mailwing 日程 Calendar', address: from }, to: job.email, subject: `日程提醒 Reminder: ${job.title} · ${when}`,
        text: `${job.title}\n${when} (${job.tz})\n`, messageId, date: this.now(),
        // RFC 3834 §5: written by a program, so auto-responders must not answer it.
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      await this.d.ingest.deliver(raw, from, [{ userId: job.user_id, folderMid: Number(SystemFolder.Inbox) }]);
      await this.d.onMailed?.(job.id);
    }
    await repo.markSent(this.d.db, job.id, this.now());
    await this.d.push?.notifyUser(job.user_id, { title: job.title, body: `${when} (${job.tz})`, mid: '', email: job.email, url: './#/pages/modules/calendar/index' });
  }
}
