import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { forbidden } from '../../errors.js';
import type { MessageService } from '../message/message.service.js';
import * as life from './company-life.repository.js';
import * as jobs from './job.repository.js';
import type { JobRow } from './job.repository.js';
import * as repo from './purge.repository.js';

/** A cancellation can be undone for this long; then the purge job deletes for good. */
export const GRACE_DAYS = 30;
const DAY_MS = 86_400_000;
const BATCH = 500;

export interface CancellationView {
  state: 'pending' | 'undone' | 'purged';
  /** Unix seconds. */
  requestedAt: number;
  purgeAt: number;
}

const view = (c: { state: 'pending' | 'undone' | 'purged'; requested_at: Date; purge_at: Date }): CancellationView => ({
  state: c.state, requestedAt: Math.floor(c.requested_at.getTime() / 1000), purgeAt: Math.floor(c.purge_at.getTime() / 1000),
});

/**
 * Inside the caller's transaction: asks for the customer's account to be deleted after 30 days.
 * Asking again while one is pending returns that one (the delete is never scheduled twice).
 * Nothing stops meanwhile: the companies keep working until the purge, so an undo loses nothing.
 */
export async function requestCancellation(trx: Db, customerId: number, now: Date = new Date()): Promise<CancellationView> {
  const open = await repo.openCancellation(trx, customerId);
  if (open) return view(open);
  const purgeAt = new Date(now.getTime() + GRACE_DAYS * DAY_MS);
  const jobId = await jobs.insertJob(trx, { kind: 'purge', customerId, payload: {}, runAt: purgeAt });
  await repo.insertCancellation(trx, { customerId, requestedAt: now, purgeAt, jobId });
  return { state: 'pending', requestedAt: Math.floor(now.getTime() / 1000), purgeAt: Math.floor(purgeAt.getTime() / 1000) };
}

/** Takes a pending cancellation back; refused (403 cancel.not_pending) when there is none to undo. */
export async function undoCancellation(trx: Db, customerId: number, now: Date = new Date()): Promise<CancellationView> {
  const open = await repo.openCancellation(trx, customerId);
  if (!open) throw forbidden('There is no pending cancellation to undo', 'cancel.not_pending');
  // The job row is locked by the runner while it purges; cancelling waits for it, and a purge that finished first leaves nothing pending.
  const job = await jobs.lockJob(trx, open.job_id);
  if (!job || job.state !== 'pending') throw forbidden('The account has already been deleted', 'cancel.not_pending');
  if (job.payload.started) throw forbidden('The account is being deleted', 'cancel.too_late');
  await jobs.cancelJob(trx, open.job_id, now);
  await repo.setCancellation(trx, open.id, { state: 'undone', at: now });
  return { ...view(open), state: 'undone' };
}

export async function cancellationStatus(db: Db, customerId: number): Promise<CancellationView | null> {
  const c = await repo.latestCancellation(db, customerId);
  return c ? view(c) : null;
}

/** What the customer still has on their balance, in fen: shown before and after cancelling, never silently kept. */
export async function leftoverBalance(db: Db, customerId: number): Promise<{ balanceCents: number }> {
  return { balanceCents: (await life.customerBalance(db, customerId)) ?? 0 };
}

/**
 * The hard delete, when the grace has passed: each company of the customer in its own transaction,
 * dropping every blob reference its mailboxes held (mail through MessageService.removeRows, which
 * also drops parsed contents nobody else points at) before its rows cascade away, then the
 * customer's export archives. A blob another customer's mailbox still references keeps its count
 * above 0 and stays. Safe to repeat: a company already gone is simply not found again.
 */
export async function runPurge(d: { db: Db; blobs: BlobService; messages: MessageService }, job: JobRow, now: Date): Promise<void> {
  const customerId = job.customer_id;
  // Marked started under the job's lock: an undo (which takes the same lock) is refused from here on.
  const go = await d.db.transaction().execute(async (trx) => {
    const current = await jobs.lockJob(trx, job.id);
    if (!current || current.state !== 'pending') return false;
    await jobs.setPayload(trx, job.id, { ...current.payload, started: true });
    return true;
  });
  if (!go) return;
  for (const c of await life.companiesOfCustomer(d.db, customerId)) {
    // Mail in batches, so a large company never sits in one huge transaction.
    for (;;) {
      const n = await d.db.transaction().execute(async (trx) => {
        const rows = await repo.messagesOfCompany(trx, c.id, BATCH);
        await d.messages.removeRows(trx, rows);
        return rows.length;
      });
      if (n < BATCH) break;
    }
    await d.db.transaction().execute(async (trx) => {
      await d.blobs.unreference(trx, await repo.otherReferences(trx, c.id));
      await repo.deleteCompany(trx, c.id);
    });
  }
  await d.db.transaction().execute(async (trx) => {
    const current = await jobs.lockJob(trx, job.id);
    if (!current || current.state !== 'pending') return;
    await d.blobs.unreference(trx, await repo.exportBlobsOf(trx, customerId));
    const cancel = await repo.cancellationOfJob(trx, job.id);
    if (cancel) await repo.setCancellation(trx, cancel.id, { state: 'purged', at: now });
    await repo.closeCustomer(trx, customerId);
    await jobs.finish(trx, job.id, now, { purged: true });
  });
  await d.blobs.collect();
}
