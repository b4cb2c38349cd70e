import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../errors.js';
import * as jobs from './job.repository.js';
import type { JobRow } from './job.repository.js';
import type { JobKind } from './tables.js';

/** A claimed job not finished in this time (its node died) is claimed again. */
export const JOB_LEASE_MS = 120_000;
/** Poll interval; an enqueue also wakes the runner through NOTIFY, so provisioning starts within a second or so. */
export const LIFE_POLL_MS = 5_000;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 10 * 60_000;
/** About half an hour of retries (5 s doubling to 10 min) before a job is failed for a human to look at. */
export const MAX_ATTEMPTS = 10;

export type JobHandler = (job: JobRow, now: Date) => Promise<void>;

/** When the attempt numbered `attempts` failed, the next one is due after this long. */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Runs company jobs: claims due ones under a lease, hands each to its kind's handler, and on a
 * failure schedules the next attempt with back-off. A refusal (AppError: the domain was taken
 * meanwhile, a bad order) will not get better by retrying, so it fails the job at once.
 */
export class CompanyJobRunner {
  private readonly handlers = new Map<JobKind, JobHandler>();

  constructor(private readonly db: Db, private readonly now: () => Date, private readonly log?: Logger) {}

  handle(kind: JobKind, fn: JobHandler): void {
    this.handlers.set(kind, fn);
  }

  async runDue(limit = 10): Promise<number> {
    const now = this.now();
    const claimed = await jobs.claimDue(this.db, now, new Date(now.getTime() + JOB_LEASE_MS), limit);
    for (const job of claimed) await this.runOne(job);
    return claimed.length;
  }

  private async runOne(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for ${job.kind} jobs`);
      await handler(job, this.now());
    } catch (err) {
      const message = err instanceof AppError ? `${err.reason}: ${err.message}` : err instanceof Error ? err.message : String(err);
      const permanent = err instanceof AppError || job.attempts >= MAX_ATTEMPTS;
      const now = this.now();
      await jobs.retryOrFail(this.db, job.id, message, permanent ? null : new Date(now.getTime() + backoffMs(job.attempts)), now);
      this.log?.warn({ err, job: job.id, kind: job.kind, attempts: job.attempts }, permanent ? 'company job failed' : 'company job will be retried');
    }
  }
}
