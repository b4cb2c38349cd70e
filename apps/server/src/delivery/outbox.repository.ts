import { sql } from 'kysely';
import type { Db } from '../db/connect.js';

// The durable outbound queue. A job is claimed by pushing its next_attempt_at one
// lease ahead in a short transaction (FOR UPDATE SKIP LOCKED, so N nodes never take
// the same job); a worker that dies mid-delivery simply lets the lease run out.

export interface NewJob {
  /** The sent copy; null for system mail (verification codes), which has no copy and names its own idempotencyKey. */
  messageId: number | null; senderId: number | null; companyId: number; blobHash: string; mailFrom: string; rcpt: string;
  idempotencyKey?: string;
  /** Known undeliverable before any attempt (e.g. a hosted address that no longer exists): recorded as failed with this answer. */
  failure?: string;
}

/** Queues jobs; the idempotency key (sent copy, recipient) makes a repeated enqueue a no-op. Returns ids by recipient. */
export async function enqueue(db: Db, jobs: NewJob[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (jobs.length === 0) return ids;
  const rows = await db.insertInto('outbox').values(jobs.map((j) => ({
    message_id: j.messageId, sender_id: j.senderId, company_id: j.companyId, blob_hash: j.blobHash, mail_from: j.mailFrom, rcpt: j.rcpt,
    idempotency_key: j.idempotencyKey ?? `${j.messageId}:${j.rcpt}`, status: j.failure ? 'failed' as const : 'queued' as const, last_error: j.failure ?? '',
  }))).onConflict((oc) => oc.column('idempotency_key').doNothing()).returning(['id', 'rcpt']).execute();
  for (const r of rows) ids.set(r.rcpt, r.id);
  return ids;
}

export interface ClaimedJob {
  id: number; message_id: number | null; sender_id: number | null; blob_hash: string; mail_from: string; rcpt: string;
  attempts: number; created_at: Date;
}

export async function claim(db: Db, limit: number, leaseMs: number, at?: Date): Promise<ClaimedJob[]> {
  const now = at ? sql`${at}::timestamptz` : sql`now()`;
  const result = await sql<ClaimedJob>`
    UPDATE outbox o SET attempts = o.attempts + 1, next_attempt_at = ${now} + ${leaseMs} * interval '1 millisecond', updated_at = now()
    FROM (SELECT id FROM outbox WHERE status = 'queued' AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED) c
    WHERE o.id = c.id
    RETURNING o.id, o.message_id, o.sender_id, o.blob_hash, o.mail_from, o.rcpt, o.attempts, o.created_at`.execute(db);
  return result.rows;
}

/**
 * Closes a job as sent (the remote 250) or failed, and sets the sent copy's overall
 * status in the same transaction. The copy's row is locked first: two recipients of
 * one mail finishing at once would otherwise each compute the status from a snapshot
 * without the other's result, and the later write could leave "sending" for good.
 * Only a queued job changes, so a late duplicate record is harmless.
 */
export async function closeJob(db: Db, job: { id: number; message_id: number | null }, status: 'sent' | 'failed', error: string, host: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (job.message_id !== null) await trx.selectFrom('messages').select('id').where('id', '=', job.message_id).forUpdate().execute();
    const row = await trx.updateTable('outbox').set({ status, last_error: error.slice(0, 1000), remote_host: host, updated_at: new Date() })
      .where('id', '=', job.id).where('status', '=', 'queued').returning('message_id').executeTakeFirst();
    if (row && row.message_id !== null) await refreshSentState(trx, row.message_id);
  });
}

export async function recordRetry(db: Db, id: number, error: string, host: string, at: Date): Promise<void> {
  await db.updateTable('outbox').set({ last_error: error.slice(0, 1000), remote_host: host, next_attempt_at: at, updated_at: new Date() })
    .where('id', '=', id).where('status', '=', 'queued').execute();
}

/**
 * The sent copy's overall status follows its outside recipients: any failure is
 * send_failed, anything still queued is sending, otherwise sent. A recalled or
 * audit state is left alone.
 */
async function refreshSentState(db: Db, messageId: number): Promise<void> {
  await sql`
    UPDATE messages m SET delivery_state = CASE
      WHEN EXISTS (SELECT 1 FROM outbox WHERE message_id = m.id AND status = 'failed') THEN 'send_failed'
      WHEN EXISTS (SELECT 1 FROM outbox WHERE message_id = m.id AND status IN ('queued', 'held')) THEN 'sending'
      ELSE 'sent' END
    WHERE m.id = ${messageId} AND m.delivery_state IN ('sending', 'sent', 'send_failed')`.execute(db);
}

export async function senderDomain(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').innerJoin('domains', 'domains.id', 'users.domain_id').select('domains.name')
    .where('users.id', '=', userId).executeTakeFirst();
  return row?.name ?? null;
}
