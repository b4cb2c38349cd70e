import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withDiskTables } from './tables.js';

export async function insertShare(db: Db, v: { userId: number; nodeId: number; tokenHash: string; passwordHash: string | null; expiresAt: Date | null; now: Date }) {
  return withDiskTables(db).insertInto('disk_shares').values({
    user_id: v.userId, node_id: v.nodeId, token_hash: v.tokenHash, password_hash: v.passwordHash, expires_at: v.expiresAt, created_at: v.now,
  }).returning(['id']).executeTakeFirstOrThrow();
}

export async function deleteShare(db: Db, userId: number, id: number): Promise<boolean> {
  const r = await withDiskTables(db).deleteFrom('disk_shares').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A share by its token's hash, with the file it names; only a live (not binned) file. */
export async function findByToken(db: Db, tokenHash: string) {
  return withDiskTables(db).selectFrom('disk_shares as s').innerJoin('disk_nodes as n', 'n.id', 's.node_id')
    .select(['s.id', 's.password_hash', 's.failed_tries', 's.expires_at', 'n.name', 'n.size', 'n.blob_hash', 'n.content_type'])
    .where('s.token_hash', '=', tokenHash).where('n.deleted_at', 'is', null).executeTakeFirst();
}

export async function addFailure(db: Db, id: number): Promise<void> {
  await withDiskTables(db).updateTable('disk_shares').set({ failed_tries: sql`failed_tries + 1` }).where('id', '=', id).execute();
}
