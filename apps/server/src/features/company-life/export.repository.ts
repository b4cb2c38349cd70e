import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { NoteTables } from '../note/tables.js';
import { withLifeTables } from './tables.js';

const life = (db: Db) => withLifeTables(db);

export async function insertExport(db: Db, customerId: number, jobId: number): Promise<number> {
  const row = await life(db).insertInto('customer_exports').values({ customer_id: customerId, job_id: jobId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function exportOfJob(db: Db, jobId: number) {
  return life(db).selectFrom('customer_exports').select(['id', 'customer_id', 'blob_hash']).where('job_id', '=', jobId).forUpdate().executeTakeFirst();
}

export async function setArchive(db: Db, id: number, v: { hash: string; size: number; linkExpiresAt: Date }): Promise<void> {
  await life(db).updateTable('customer_exports').set({ blob_hash: v.hash, size: v.size, link_expires_at: v.linkExpiresAt }).where('id', '=', id).execute();
}

export async function findExport(db: Db, id: number) {
  return life(db).selectFrom('customer_exports').select(['id', 'customer_id', 'blob_hash', 'size', 'link_expires_at', 'created_at']).where('id', '=', id).executeTakeFirst();
}

export async function exportsOf(db: Db, customerId: number) {
  return life(db).selectFrom('customer_exports as e').innerJoin('company_jobs as j', 'j.id', 'e.job_id')
    .select(['e.id', 'e.blob_hash', 'e.size', 'e.link_expires_at', 'e.created_at', 'j.state', 'j.attempts', 'j.last_error'])
    .select((eb) => eb.selectFrom('customer_export_downloads as d').select(sql<number>`count(*)::int`.as('n')).whereRef('d.export_id', '=', 'e.id').as('downloads'))
    .where('e.customer_id', '=', customerId).orderBy('e.id', 'desc').limit(20).execute();
}

export async function logDownload(db: Db, exportId: number, v: { ip: string; userAgent: string; at: Date }): Promise<void> {
  await life(db).insertInto('customer_export_downloads').values({ export_id: exportId, ip: v.ip, user_agent: v.userAgent.slice(0, 500), at: v.at }).execute();
}

export async function downloadsOf(db: Db, exportId: number) {
  return life(db).selectFrom('customer_export_downloads').select(['ip', 'user_agent', 'at']).where('export_id', '=', exportId).orderBy('id').execute();
}

/** Archives whose link has run out: their blob reference is dropped (the row and its download log stay). */
export async function takeExpiredArchives(db: Db, now: Date, limit: number): Promise<{ id: number; blob_hash: string }[]> {
  const rows = await sql<{ id: number; blob_hash: string }>`
    UPDATE customer_exports e SET blob_hash = NULL FROM (
      SELECT id, blob_hash FROM customer_exports WHERE blob_hash IS NOT NULL AND link_expires_at < ${now} LIMIT ${limit} FOR UPDATE SKIP LOCKED) old
    WHERE e.id = old.id RETURNING old.id, old.blob_hash`.execute(db);
  return rows.rows.map((r) => ({ id: Number(r.id), blob_hash: r.blob_hash }));
}

// ---- what goes into an archive ----

export async function mailboxesOf(db: Db, customerId: number) {
  return db.selectFrom('users').innerJoin('companies', 'companies.id', 'users.company_id')
    .select(['users.id', 'users.email', 'users.name', 'companies.id as companyId', 'companies.name as company'])
    .where('companies.customer_id', '=', customerId).orderBy('companies.id').orderBy('users.id').execute();
}

/** One folder's mail, oldest first, a page at a time (by id, so a large folder never sits in memory). */
export async function folderPage(db: Db, userId: number, folderMid: number, afterId: number, limit: number) {
  return db.selectFrom('messages').innerJoin('mail_contents', 'mail_contents.id', 'messages.content_id')
    .select(['messages.id', 'messages.blob_hash', 'messages.received_at', 'mail_contents.from_address'])
    .where('messages.user_id', '=', userId).where('messages.folder_mid', '=', folderMid).where('messages.id', '>', afterId)
    .orderBy('messages.id').limit(limit).execute();
}

export async function notesOf(db: Db, userId: number) {
  return db.withTables<NoteTables>().selectFrom('notes').leftJoin('note_folders', 'note_folders.id', 'notes.folder_id')
    .select(['notes.id', 'notes.title', 'notes.html', 'notes.tags', 'notes.cipher', 'notes.iv', 'notes.salt', 'notes.kdf', 'notes.iterations',
      'notes.created_at', 'notes.updated_at', 'note_folders.name as folder'])
    .where('notes.user_id', '=', userId).orderBy('notes.id').execute();
}
