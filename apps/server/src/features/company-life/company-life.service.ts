import type { Logger } from 'pino';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db, DbHandle } from '../../db/connect.js';
import type { SystemMailer } from '../../delivery/system-mailer.js';
import { QueueRunner } from '../../delivery/queue-runner.js';
import { CompanyJobRunner, LIFE_POLL_MS } from './company-life.worker.js';
import type { CalendarIcsService } from '../calendar/calendar-ics.service.js';
import type { ContactService } from '../contact/contact.service.js';
import type { MessageService } from '../message/message.service.js';
import { runPurge } from './cancel.service.js';
import { runExpiry } from './expiry.service.js';
import { runExport, sweepExports } from './export.service.js';
import { JOBS_CHANNEL } from './job.repository.js';
import { runProvision, type ProvisionStep } from './provision.service.js';

export interface CompanyLifeDeps {
  db: Db;
  blobs: BlobService;
  mailer: SystemMailer;
  contacts: ContactService;
  calendarIcs: CalendarIcsService;
  messages: MessageService;
  now?: () => Date;
  log?: Logger;
  listen?: DbHandle['listen'];
  /** Test hook for provisioning (provision.service.ts). */
  onProvisionStep?: (step: ProvisionStep, jobId: number) => Promise<void>;
}

/**
 * The company lifecycle behind the west storefront (issue 19): provisioning, expiry and
 * reminders, exports and cancellation. One runner does all of its background work; the
 * storefront calls the exported functions of the *.service.ts files beside this one.
 */
export class CompanyLifeService {
  readonly now: () => Date;
  readonly jobs: CompanyJobRunner;
  readonly runner: QueueRunner;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly d: CompanyLifeDeps) {
    this.now = d.now ?? (() => new Date());
    this.jobs = new CompanyJobRunner(d.db, this.now, d.log);
    this.jobs.handle('provision', (job, now) => runProvision({ db: d.db, mailer: d.mailer, log: d.log, onStep: d.onProvisionStep }, job, now));
    this.jobs.handle('export', (job, now) => runExport({ db: d.db, blobs: d.blobs, contacts: d.contacts, calendarIcs: d.calendarIcs }, job, now));
    this.jobs.handle('purge', (job, now) => runPurge({ db: d.db, blobs: d.blobs, messages: d.messages }, job, now));
    this.runner = new QueueRunner(() => this.tick(), LIFE_POLL_MS, d.log);
  }

  /** One round: due jobs, then statuses and reminders by the clock. Returns how much was done (the runner loops while > 0). */
  async tick(): Promise<number> {
    return (await this.jobs.runDue()) + (await runExpiry({ db: this.d.db, mailer: this.d.mailer, now: this.now, log: this.d.log }))
      + (await sweepExports(this.d.db, this.d.blobs, this.now()));
  }

  async start(): Promise<void> {
    this.runner.start();
    // A job enqueued on any node wakes this one as soon as its transaction commits.
    this.unlisten = await this.d.listen?.(JOBS_CHANNEL, () => this.runner.wake(), () => this.runner.wake());
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    await this.runner.stop();
  }
}
