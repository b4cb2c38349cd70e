import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

export async function listTags(db: Db, userId: number) {
  return db.selectFrom('tags as t').select(['t.id', 't.name', 't.color'])
    .select(sql<number>`(SELECT count(*)::int FROM message_tags mt WHERE mt.tag_id = t.id)`.as('count'))
    .where('t.user_id', '=', userId).orderBy('t.name').execute();
}

export async function findTag(db: Db, userId: number, id: number) {
  return db.selectFrom('tags').select(['id', 'name', 'color']).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function nameTaken(db: Db, userId: number, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('tags').select('id').where('user_id', '=', userId).where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertTag(db: Db, userId: number, name: string, color: string) {
  return db.insertInto('tags').values({ user_id: userId, name, color }).returning(['id', 'name', 'color']).executeTakeFirstOrThrow();
}

export async function updateTag(db: Db, userId: number, id: number, v: { name?: string; color?: string }): Promise<void> {
  await db.updateTable('tags').set(v).where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function deleteTag(db: Db, userId: number, id: number): Promise<void> {
  await db.deleteFrom('tags').where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function tagMessages(db: Db, tagId: number, messageIds: number[]): Promise<number> {
  const r = await db.insertInto('message_tags').values(messageIds.map((m) => ({ message_id: m, tag_id: tagId })))
    .onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}

export async function untagMessages(db: Db, tagId: number, messageIds: number[]): Promise<number> {
  const r = await db.deleteFrom('message_tags').where('tag_id', '=', tagId).where('message_id', 'in', messageIds).executeTakeFirst();
  return Number(r.numDeletedRows);
}
