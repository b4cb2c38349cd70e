import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import { packBytes } from '../db/packed-bytes.js';

// Reference counts of blobs. A count of 0 marks a blob for the collector; only the
// collector removes files, under the row lock, so a concurrent writer that takes
// the same lock afterwards sees the removal and restores the file (FileBlobStore.ensure).

/** New references to a blob; `data` carries the bytes of one kept in its row (BlobService.stage). */
export interface BlobRef { hash: string; size: number; n: number; data?: Buffer }

/** Adds references; `refs` must name each hash once. Rows are locked in hash order, so concurrent writers cannot deadlock. */
export async function addRefs(db: Db, refs: BlobRef[]): Promise<void> {
  if (refs.length > 0) await addRefsSql(refs).execute(db);
}

/**
 * `addRefs` as a statement of its own or as a part of one (features/message/filing.repository.ts).
 * The rows' bytes travel as one binary parameter (packBytes). A row that already
 * exists keeps the bytes it has, and gains these if it had none (its file may be gone: see collect).
 */
export function addRefsSql(refs: BlobRef[]) {
  const { bytes, offsets, lengths } = packBytes(refs.map((r) => r.data));
  // Inserted, and so locked, in hash order.
  return sql`INSERT INTO blobs (hash, size, refcount, data)
    SELECT r.hash, r.size, r.n, CASE WHEN r.len < 0 THEN NULL ELSE substring(${bytes}::bytea FROM r.off + 1 FOR r.len) END
    FROM unnest(${refs.map((r) => r.hash)}::text[], ${refs.map((r) => r.size)}::bigint[], ${refs.map((r) => r.n)}::int[], ${offsets}::int[], ${lengths}::int[])
      AS r(hash, size, n, off, len) ORDER BY 1
    ON CONFLICT (hash) DO UPDATE SET refcount = blobs.refcount + excluded.refcount, data = COALESCE(blobs.data, excluded.data)`;
}

/** The row of a blob whose bytes it keeps (none when the store holds them). */
const withBytes = (db: Db, hash: string) => db.selectFrom('blobs').where('hash', '=', hash).where('data', 'is not', null);

/** Whether a blob's row keeps its bytes, without reading them. */
export async function hasRowData(db: Db, hash: string): Promise<boolean> {
  return (await withBytes(db, hash).select('hash').executeTakeFirst()) !== undefined;
}

/** The bytes of a blob kept in its row, or null when the store holds it. */
export async function rowData(db: Db, hash: string): Promise<Buffer | null> {
  const row = await withBytes(db, hash).select('data').executeTakeFirst();
  if (!row?.data) return null;
  // The embedded database's thread hands back a Uint8Array.
  const d = row.data as Uint8Array;
  return Buffer.isBuffer(d) ? d : Buffer.from(d.buffer, d.byteOffset, d.byteLength);
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
  return (await collectableQuery(db, hash).executeTakeFirst()) !== undefined;
}

/**
 * lockIfCollectable's statement. Each look at a referencing table goes through that table's
 * index on blob_hash (migration 042; test/foreign-key-indexes.test.ts reads the plan).
 */
export function collectableQuery(db: Db, hash: string) {
  return db.selectFrom('blobs').select('hash').where('hash', '=', hash).where('refcount', '=', 0)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('mail_contents').select(sql`1`.as('x')).where('blob_hash', '=', hash))))
    // Queued deliveries keep their blob without a reference of their own: the sender may purge the sent copy meanwhile.
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('outbox').select(sql`1`.as('x')).where('blob_hash', '=', hash).where('status', 'in', ['held', 'queued']))))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('uploads').select(sql`1`.as('x')).where('blob_hash', '=', hash))))
    .forUpdate();
}

export async function deleteRow(db: Db, hash: string): Promise<void> {
  await db.deleteFrom('blobs').where('hash', '=', hash).execute();
}
