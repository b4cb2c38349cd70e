import type { Logger } from 'pino';
import type { BlobService } from '../blob/blob.service.js';
import type { DeliveryConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import type { IngestService } from '../features/message/ingest.service.js';
import { deliverBounce } from './bounce.js';
import * as outbox from './outbox.repository.js';
import { nextAttempt } from './retry-policy.js';
import type { AttemptResult, SmtpOutbound } from './smtp-outbound.js';

export interface DeliveryDeps {
  db: Db;
  blobs: BlobService;
  ingest: IngestService;
  outbound: SmtpOutbound;
  cfg: DeliveryConfig;
  hostname: string;
  log?: Logger;
}

/**
 * Works the outbound queue: claims due jobs, hands each to SMTP, and records the
 * outcome. At-least-once: the record follows the remote 250, so a crash between
 * them resends once after the lease; a recorded success is never claimed again.
 */
export class DeliveryWorker {
  constructor(private readonly d: DeliveryDeps) {}

  /**
   * One pass: claims up to `concurrency` due jobs and delivers them in parallel. Returns how many were tried.
   * `now` is the clock the due times, the lease and the retry period are judged by: the
   * database's own when omitted (one clock for every node), a moved one in tests.
   */
  async runOnce(now?: Date): Promise<number> {
    const jobs = await outbox.claim(this.d.db, this.d.cfg.concurrency, this.d.cfg.leaseMs, now);
    await Promise.all(jobs.map((job) => this.deliver(job, now).catch((err: unknown) => this.d.log?.error({ err, job: job.id }, 'delivery bookkeeping failed'))));
    return jobs.length;
  }

  private async deliver(job: outbox.ClaimedJob, now: Date | undefined): Promise<void> {
    let raw: Buffer;
    try {
      raw = await this.d.blobs.get(job.blob_hash);
    } catch (err) {
      return this.fail(job, Buffer.alloc(0), { ok: false, permanent: true, host: '', error: `554 5.3.0 the message could not be read from storage (${(err as Error).message})` });
    }
    const result = await this.d.outbound.deliver(job.mail_from, job.rcpt, raw);
    if (result.ok) {
      await outbox.closeJob(this.d.db, job, 'sent', '', result.host);
      return;
    }
    const retryAt = result.permanent ? null : nextAttempt(this.d.cfg, job.attempts, job.created_at, now);
    if (retryAt) {
      this.d.log?.info({ job: job.id, error: result.error, retryAt }, 'delivery deferred');
      await outbox.recordRetry(this.d.db, job.id, result.error, result.host, retryAt);
      return;
    }
    await this.fail(job, raw, result.permanent ? result : { ...result, error: `${result.error} (gave up after ${job.attempts} attempts)` });
  }

  /** A permanent failure: the sender gets a bounce report in the Inbox, then the job is closed as failed. */
  private async fail(job: outbox.ClaimedJob, raw: Buffer, result: Extract<AttemptResult, { ok: false }>): Promise<void> {
    if (job.sender_id !== null) {
      // Stored before the job is closed: a crash in between repeats the bounce rather than losing it.
      await deliverBounce({ db: this.d.db, ingest: this.d.ingest, hostname: this.d.hostname },
        { senderId: job.sender_id, mailFrom: job.mail_from, rcpt: job.rcpt, since: job.created_at }, raw, result.error, result.host);
    }
    await outbox.closeJob(this.d.db, job, 'failed', result.error, result.host);
  }
}
