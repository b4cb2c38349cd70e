import { sql } from 'kysely';
import { SYSTEM_FOLDER_IDS } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';

export const SYSTEM_FOLDER_NAMES: Record<string, string> = {
  '0': 'Inbox', '1': 'Sent', '2': 'Drafts', '3': 'Spam', '4': 'Deleted', '5': 'GroupMail', '6': 'MailHistory',
};

export async function createSystemFolders(db: Db, userId: number): Promise<void> {
  await db.insertInto('folders')
    .values(SYSTEM_FOLDER_IDS.map((id) => ({ user_id: userId, mid: Number(id), parent_mid: null, name: SYSTEM_FOLDER_NAMES[id] ?? id, depth: 1 })))
    .execute();
}

export async function listFolders(db: Db, userId: number) {
  return db.selectFrom('folders').select(['mid', 'parent_mid', 'name', 'depth', 'unread', 'total'])
    .where('user_id', '=', userId).orderBy('mid').execute();
}

export async function findFolder(db: Db, userId: number, mid: number) {
  return db.selectFrom('folders').select(['mid', 'parent_mid', 'name', 'depth', 'unread', 'total']).where('user_id', '=', userId).where('mid', '=', mid).executeTakeFirst();
}

export async function siblingNameTaken(db: Db, userId: number, parentMid: number | null, name: string): Promise<boolean> {
  const row = await db.selectFrom('folders').select('mid').where('user_id', '=', userId)
    .where(sql<number>`coalesce(parent_mid, -1)`, '=', parentMid ?? -1)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

export async function insertFolder(db: Db, v: { userId: number; parentMid: number | null; name: string; depth: number }) {
  return db.insertInto('folders')
    .values({ user_id: v.userId, mid: sql<number>`nextval('folder_mid_seq')`, parent_mid: v.parentMid, name: v.name, depth: v.depth })
    .returning(['mid', 'parent_mid', 'name', 'unread', 'total']).executeTakeFirstOrThrow();
}

export async function renameFolder(db: Db, userId: number, mid: number, name: string): Promise<void> {
  await db.updateTable('folders').set({ name }).where('user_id', '=', userId).where('mid', '=', mid).execute();
}

/** A folder and every folder below it (at most three levels). */
export async function subtree(db: Db, userId: number, mid: number): Promise<number[]> {
  const rows = await sql<{ mid: number }>`
    WITH RECURSIVE t AS (
      SELECT mid FROM folders WHERE user_id = ${userId} AND mid = ${mid}
      UNION ALL SELECT f.mid FROM folders f JOIN t ON f.parent_mid = t.mid WHERE f.user_id = ${userId})
    SELECT mid FROM t`.execute(db);
  return rows.rows.map((r) => r.mid);
}

export async function moveFolderMail(db: Db, userId: number, mids: number[], to: number): Promise<number> {
  const r = await db.updateTable('messages').set({ folder_mid: to }).where('user_id', '=', userId).where('folder_mid', 'in', mids).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function deleteFolders(db: Db, userId: number, mids: number[]): Promise<void> {
  // Children first is not needed: the parent key cascades.
  await db.deleteFrom('folders').where('user_id', '=', userId).where('mid', 'in', mids).execute();
}
