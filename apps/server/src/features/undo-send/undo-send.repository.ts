import { sql } from 'kysely';
import { UNDO_SEND_DEFAULT_S } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { withUndoSendTables } from './tables.js';

/** The mailbox's undo window in seconds; the default when it never chose one. */
export async function undoSeconds(db: Db, userId: number): Promise<number> {
  const row = await withUndoSendTables(db).selectFrom('send_settings').select('undo_seconds').where('user_id', '=', userId).executeTakeFirst();
  return row?.undo_seconds ?? UNDO_SEND_DEFAULT_S;
}

export async function setUndoSeconds(db: Db, userId: number, seconds: number): Promise<void> {
  await withUndoSendTables(db).insertInto('send_settings').values({ user_id: userId, undo_seconds: seconds })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ undo_seconds: seconds, updated_at: sql`now()` }))
    .execute();
}
