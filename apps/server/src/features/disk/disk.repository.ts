import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withDiskTables } from './tables.js';

// The only SQL of the disk's files and folders. Every query names the owner.

const NODE_COLS = ['id', 'parent_id', 'is_folder', 'name', 'size', 'content_type', 'blob_hash', 'created_at', 'updated_at', 'deleted_at'] as const;
export type NodeRow = { id: number; parent_id: number | null; is_folder: boolean; name: string; size: number; content_type: string; blob_hash: string | null; created_at: Date; updated_at: Date; deleted_at: Date | null };

export async function findNode(db: Db, userId: number, id: number): Promise<NodeRow | undefined> {
  return withDiskTables(db).selectFrom('disk_nodes').select(NODE_COLS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** The node and its ancestors, root first, with whether each is in the bin. */
export async function pathOf(db: Db, userId: number, id: number): Promise<{ id: number; name: string; deleted: boolean }[]> {
  const r = await sql<{ id: number; name: string; deleted: boolean; depth: number }>`
    WITH RECURSIVE up AS (
      SELECT id, parent_id, name, deleted_at IS NOT NULL AS deleted, 0 AS depth FROM disk_nodes WHERE id = ${id} AND user_id = ${userId}
      UNION ALL
      SELECT n.id, n.parent_id, n.name, n.deleted_at IS NOT NULL, up.depth + 1 FROM disk_nodes n JOIN up ON n.id = up.parent_id WHERE n.user_id = ${userId} AND up.depth < 1000
    ) SELECT id, name, deleted, depth FROM up ORDER BY depth DESC`.execute(db);
  return r.rows.map((x) => ({ id: Number(x.id), name: x.name, deleted: x.deleted }));
}

export async function listChildren(db: Db, userId: number, parentId: number | null, offset: number, limit: number): Promise<{ rows: NodeRow[]; total: number }> {
  const d = withDiskTables(db);
  const base = d.selectFrom('disk_nodes').where('user_id', '=', userId).where('deleted_at', 'is', null)
    .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)));
  const rows = await base.select(NODE_COLS).orderBy('is_folder', 'desc').orderBy(sql`lower(name)`).orderBy('id').offset(offset).limit(limit).execute();
  const { n } = await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

/** Top-level bin entries: deleted nodes whose parent is not itself deleted. */
export async function listBin(db: Db, userId: number, offset: number, limit: number): Promise<{ rows: NodeRow[]; total: number }> {
  const d = withDiskTables(db);
  const base = d.selectFrom('disk_nodes as n').where('n.user_id', '=', userId).where('n.deleted_at', 'is not', null)
    .where((eb) => eb.or([eb('n.parent_id', 'is', null), eb.not(eb.exists(eb.selectFrom('disk_nodes as p').select(sql`1`.as('x')).whereRef('p.id', '=', 'n.parent_id').where('p.deleted_at', 'is not', null)))]));
  const rows = await base.select(NODE_COLS.map((c) => `n.${c}` as const)).orderBy('n.deleted_at', 'desc').orderBy('n.id', 'desc').offset(offset).limit(limit).execute();
  const { n } = await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

export async function insertNode(db: Db, v: { userId: number; parentId: number | null; folder: boolean; name: string; size?: number; blobHash?: string; contentType?: string; now: Date }): Promise<NodeRow> {
  return withDiskTables(db).insertInto('disk_nodes').values({
    user_id: v.userId, parent_id: v.parentId, is_folder: v.folder, name: v.name, size: v.size ?? 0, blob_hash: v.blobHash ?? null,
    content_type: v.contentType ?? 'application/octet-stream', created_at: v.now, updated_at: v.now,
  }).returning(NODE_COLS).executeTakeFirstOrThrow();
}

export async function nameTaken(db: Db, userId: number, parentId: number | null, name: string, exceptId?: number): Promise<boolean> {
  let q = withDiskTables(db).selectFrom('disk_nodes').select('id').where('user_id', '=', userId).where('deleted_at', 'is', null)
    .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)))
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function update(db: Db, userId: number, id: number, v: { name?: string; parentId?: number | null; deletedAt?: Date | null; now: Date }): Promise<void> {
  await withDiskTables(db).updateTable('disk_nodes').set({
    ...(v.name !== undefined ? { name: v.name } : {}),
    ...(v.parentId !== undefined ? { parent_id: v.parentId } : {}),
    ...(v.deletedAt !== undefined ? { deleted_at: v.deletedAt } : {}),
    updated_at: v.now,
  }).where('user_id', '=', userId).where('id', '=', id).execute();
}

/** Locks the caller's nodes among `ids` (in id order, so concurrent batches cannot deadlock). */
export async function lockOwned(db: Db, userId: number, ids: number[]): Promise<NodeRow[]> {
  return withDiskTables(db).selectFrom('disk_nodes').select(NODE_COLS).where('user_id', '=', userId).where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Blob hashes (with counts) of the files under these nodes, the nodes included. */
export async function subtreeBlobs(db: Db, userId: number, ids: number[]): Promise<Map<string, number>> {
  const r = await sql<{ blob_hash: string; n: number }>`
    WITH RECURSIVE t AS (
      SELECT id, blob_hash FROM disk_nodes WHERE user_id = ${userId} AND id IN (${sql.join(ids)})
      UNION ALL
      SELECT n.id, n.blob_hash FROM disk_nodes n JOIN t ON n.parent_id = t.id WHERE n.user_id = ${userId}
    ) SELECT blob_hash, count(*)::int AS n FROM t WHERE blob_hash IS NOT NULL GROUP BY blob_hash`.execute(db);
  return new Map(r.rows.map((x) => [x.blob_hash, Number(x.n)]));
}

export async function deleteNodes(db: Db, userId: number, ids: number[]): Promise<void> {
  await withDiskTables(db).deleteFrom('disk_nodes').where('user_id', '=', userId).where('id', 'in', ids).execute();
}
