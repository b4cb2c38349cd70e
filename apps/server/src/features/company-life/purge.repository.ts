import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withLifeTables } from './tables.js';

// What a hard delete must release before the company's rows go: every blob reference held by
// its mailboxes (mail, uploads, disk files, avatars). The rows themselves cascade from companies.

const life = (db: Db) => withLifeTables(db);

export async function messagesOfCompany(db: Db, companyId: number, limit: number) {
  return db.selectFrom('messages').innerJoin('users', 'users.id', 'messages.user_id')
    .select(['messages.id', 'messages.blob_hash', 'messages.content_id'])
    .where('users.company_id', '=', companyId).orderBy('messages.id').limit(limit).execute();
}

/** Blob references other than mail held by a company's mailboxes: uploads, disk files and avatars, counted per blob. */
export async function otherReferences(db: Db, companyId: number): Promise<Map<string, number>> {
  const r = await sql<{ hash: string; n: number }>`
    SELECT hash, count(*)::int AS n FROM (
      SELECT up.blob_hash AS hash FROM uploads up JOIN users u ON u.id = up.user_id WHERE u.company_id = ${companyId}
      UNION ALL SELECT d.blob_hash FROM disk_nodes d JOIN users u ON u.id = d.user_id WHERE u.company_id = ${companyId} AND d.blob_hash IS NOT NULL
      UNION ALL SELECT u.avatar_hash FROM users u WHERE u.company_id = ${companyId} AND u.avatar_hash IS NOT NULL
    ) refs GROUP BY hash`.execute(db);
  return new Map(r.rows.map((x) => [x.hash, Number(x.n)]));
}

export async function deleteCompany(db: Db, companyId: number): Promise<void> {
  // Users point at their domain without a cascade, so they go first; everything else cascades.
  await db.deleteFrom('users').where('company_id', '=', companyId).execute();
  await db.deleteFrom('companies').where('id', '=', companyId).execute();
}

export async function exportBlobsOf(db: Db, customerId: number): Promise<Map<string, number>> {
  const rows = await sql<{ blob_hash: string }>`
    UPDATE customer_exports e SET blob_hash = NULL FROM (
      SELECT id, blob_hash FROM customer_exports WHERE customer_id = ${customerId} AND blob_hash IS NOT NULL FOR UPDATE) old
    WHERE e.id = old.id RETURNING old.blob_hash`.execute(db);
  const counts = new Map<string, number>();
  for (const r of rows.rows) counts.set(r.blob_hash, (counts.get(r.blob_hash) ?? 0) + 1);
  return counts;
}

// ---- cancellations ----

export async function openCancellation(db: Db, customerId: number) {
  return life(db).selectFrom('customer_cancellations').selectAll().where('customer_id', '=', customerId).where('state', '=', 'pending').forUpdate().executeTakeFirst();
}

export async function latestCancellation(db: Db, customerId: number) {
  return life(db).selectFrom('customer_cancellations').selectAll().where('customer_id', '=', customerId).orderBy('id', 'desc').executeTakeFirst();
}

export async function insertCancellation(db: Db, v: { customerId: number; requestedAt: Date; purgeAt: Date; jobId: number }): Promise<number> {
  const row = await life(db).insertInto('customer_cancellations').values({ customer_id: v.customerId, requested_at: v.requestedAt, purge_at: v.purgeAt, job_id: v.jobId })
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function setCancellation(db: Db, id: number, v: { state: 'undone' | 'purged'; at: Date }): Promise<void> {
  await life(db).updateTable('customer_cancellations').set(v.state === 'undone' ? { state: 'undone', undone_at: v.at } : { state: 'purged', purged_at: v.at }).where('id', '=', id).execute();
}

export async function cancellationOfJob(db: Db, jobId: number) {
  return life(db).selectFrom('customer_cancellations').selectAll().where('job_id', '=', jobId).forUpdate().executeTakeFirst();
}

export async function closeCustomer(db: Db, customerId: number): Promise<void> {
  await db.updateTable('customers').set({ status: 'closed' }).where('id', '=', customerId).execute();
}
