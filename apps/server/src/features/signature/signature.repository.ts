import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withRuleTables } from './tables.js';

const cols = ['id', 'name', 'html', 'updated_at'] as const;

export async function listSignatures(db: Db, userId: number) {
  return withRuleTables(db).selectFrom('signatures').select(cols).where('user_id', '=', userId).orderBy('id').execute();
}

export async function findSignature(db: Db, userId: number, id: number) {
  return withRuleTables(db).selectFrom('signatures').select(cols).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** Locks the mailbox's row so that two creates at once cannot both pass the count limit. */
export async function lockAndCount(db: Db, userId: number): Promise<number> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const r = await withRuleTables(db).selectFrom('signatures').select(sql<number>`count(*)::int`.as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return r.n;
}

export async function nameTaken(db: Db, userId: number, name: string, exceptId?: number): Promise<boolean> {
  let q = withRuleTables(db).selectFrom('signatures').select('id').where('user_id', '=', userId).where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertSignature(db: Db, userId: number, name: string, html: string, now: Date) {
  return withRuleTables(db).insertInto('signatures').values({ user_id: userId, name, html, created_at: now, updated_at: now }).returning(cols).executeTakeFirstOrThrow();
}

export async function updateSignature(db: Db, userId: number, id: number, v: { name?: string; html?: string }, now: Date): Promise<void> {
  await withRuleTables(db).updateTable('signatures').set({ ...v, updated_at: now }).where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function deleteSignature(db: Db, userId: number, id: number): Promise<void> {
  await withRuleTables(db).deleteFrom('signatures').where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function getDefaults(db: Db, userId: number) {
  return withRuleTables(db).selectFrom('signature_defaults').select(['new_id', 'reply_id', 'reply_same']).where('user_id', '=', userId).executeTakeFirst();
}

export async function setDefaults(db: Db, userId: number, v: { new_id?: number | null; reply_id?: number | null; reply_same?: boolean }): Promise<void> {
  if (Object.keys(v).length === 0) return;
  await withRuleTables(db).insertInto('signature_defaults').values({ user_id: userId, new_id: v.new_id ?? null, reply_id: v.reply_id ?? null, reply_same: v.reply_same ?? true })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(v)).execute();
}
