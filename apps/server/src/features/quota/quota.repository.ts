import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withDiskTables } from '../disk/tables.js';

export interface UsageRow { quota: number; mail: number; disk: number; reserved: number }

/**
 * What a user stores, in one statement: mail copies, disk files (the recycle bin
 * included, as it can be restored) and the Upload-Length of unfinished uploads.
 * `lock` takes the user's row FOR UPDATE first, so reservations of one user queue
 * behind each other and two concurrent uploads cannot both fit into the same space.
 */
export async function usage(db: Db, userId: number, lock = false): Promise<UsageRow> {
  if (lock) await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const d = withDiskTables(db);
  const row = await d.selectFrom('users').where('users.id', '=', userId)
    .select('users.quota_bytes as quota')
    .select(sql<number>`(SELECT coalesce(sum(size), 0)::bigint FROM messages WHERE user_id = ${userId})`.as('mail'))
    .select(sql<number>`(SELECT coalesce(sum(size), 0)::bigint FROM disk_nodes WHERE user_id = ${userId} AND NOT is_folder)`.as('disk'))
    .select(sql<number>`(SELECT coalesce(sum(length), 0)::bigint FROM disk_uploads WHERE user_id = ${userId})`.as('reserved'))
    .executeTakeFirstOrThrow();
  return { quota: Number(row.quota), mail: Number(row.mail), disk: Number(row.disk), reserved: Number(row.reserved) };
}
