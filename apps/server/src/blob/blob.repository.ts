import { sql } from 'kysely';
import type { Db } from '../db/connect.js';

// Reference counts of blobs. A count of 0 marks a blob for the collector; only the
// collector removes files, under the row lock, so a concurrent writer that takes
// the same lock afterwards sees the removal and restores the file (FileBlobStore.ensure).

/** Adds references; `refs` must name each hash once. Rows are locked in hash order, so concurrent writers cannot deadlock. */
export async function addRefs(db: Db, refs: { hash: string; size: number; n: number }[]): Promise<void> {
  if (refs.length > 0) await addRefsSql(refs).execute(db);
}

/** `addRefs` as a statement of its own or as a part of one (features/message/filing.repository.ts). */
export function addRefsSql(refs: { hash: string; size: number; n: number }[]) {
  // Inserted, and so locked, in hash order.
  return sql`INSERT INTO blobs (hash, size, refcount)
    SELECT * FROM unnest(${refs.map((r) => r.hash)}::text[], ${refs.map((r) => r.size)}::bigint[], ${refs.map((r) => r.n)}::int[]) ORDER BY 1
    ON CONFLICT (hash) DO UPDATE SET refcount = blobs.refcount + excluded.refcount`;
}

export async function dropRefs(db: Db, counts: Map<string, number>): Promise<void> {
  for (const [hash, n] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    await db.updateTable('blobs').set({ refcount: sql`refcount - ${n}` }).where('hash', '=', hash).execute();
  }
}

export async function unreferenced(db: Db, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('blobs').select('hash').where('refcount', '=', 0).limit(limit).execute();
  return rows.map((r) => r.hash);
}

/** Locks the row if it is still unreferenced and nothing else points at it. */
export async function lockIfCollectable(db: Db, hash: string): Promise<boolean> {
  const row = await db.selectFrom('blobs').select('hash').where('hash', '=', hash).where('refcount', '=', 0)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('mail_contents').select(sql`1`.as('x')).where('blob_hash', '=', hash))))
    // Queued deliveries keep their blob without a reference of their own: the sender may purge the sent copy meanwhile.
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('outbox').select(sql`1`.as('x')).where('blob_hash', '=', hash).where('status', 'in', ['held', 'queued']))))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('uploads').select(sql`1`.as('x')).where('blob_hash', '=', hash))))
    .forUpdate().executeTakeFirst();
  return row !== undefined;
}

export async function deleteRow(db: Db, hash: string): Promise<void> {
  await db.deleteFrom('blobs').where('hash', '=', hash).execute();
}
