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
  return db.selectFrom('folders').select(['mid', 'parent_mid', 'name', 'depth', 'total']).where('user_id', '=', userId).where('mid', '=', mid).executeTakeFirst();
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
