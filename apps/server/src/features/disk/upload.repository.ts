import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withDiskTables, type DiskUploadsTable } from './tables.js';

// Unfinished tus uploads: each row holds its Upload-Length against the owner's quota.

export type UploadRow = { id: string; user_id: number; parent_id: number | null; name: string; length: number; sha256: string; created_at: Date; expires_at: Date };

export async function insertUpload(db: Db, v: Omit<DiskUploadsTable, 'created_at' | 'expires_at'> & { created_at: Date; expires_at: Date }): Promise<void> {
  await withDiskTables(db).insertInto('disk_uploads').values(v).execute();
}

export async function findUpload(db: Db, userId: number, id: string): Promise<UploadRow | undefined> {
  return withDiskTables(db).selectFrom('disk_uploads').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** Locks an upload row while it is finished, so a sweep or a second finish cannot run at the same time. */
export async function lockUpload(db: Db, id: string): Promise<UploadRow | undefined> {
  return withDiskTables(db).selectFrom('disk_uploads').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function deleteUpload(db: Db, id: string): Promise<void> {
  await withDiskTables(db).deleteFrom('disk_uploads').where('id', '=', id).execute();
}

/** Expired uploads, claimed so that several nodes sweeping at once take each once. */
export async function claimExpired(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await withDiskTables(db).selectFrom('disk_uploads').select('id').where('expires_at', '<=', now)
    .orderBy('expires_at').limit(limit).forUpdate().skipLocked().execute();
  return rows.map((r) => r.id);
}

/**
 * Takes the lock of an upload for `holder` for `leaseMs`, if it is free or its lease ran out
 * (a process that died). Times are the database's, so processes on several hosts agree.
 */
export async function takeLock(db: Db, uploadId: string, holder: string, leaseMs: number): Promise<boolean> {
  const r = await sql<{ upload_id: string }>`
    INSERT INTO disk_upload_locks (upload_id, holder, lease_until) VALUES (${uploadId}, ${holder}, now() + ${leaseMs} * interval '1 millisecond')
    ON CONFLICT (upload_id) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
      WHERE disk_upload_locks.lease_until < now() OR disk_upload_locks.holder = excluded.holder
    RETURNING upload_id`.execute(db);
  return r.rows.length > 0;
}

export async function renewLock(db: Db, uploadId: string, holder: string, leaseMs: number): Promise<void> {
  await sql`UPDATE disk_upload_locks SET lease_until = now() + ${leaseMs} * interval '1 millisecond' WHERE upload_id = ${uploadId} AND holder = ${holder}`.execute(db);
}

export async function dropLock(db: Db, uploadId: string, holder: string): Promise<void> {
  await withDiskTables(db).deleteFrom('disk_upload_locks').where('upload_id', '=', uploadId).where('holder', '=', holder).execute();
}
