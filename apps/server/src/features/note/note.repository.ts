import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { NoteTables, NotesDb } from './tables.js';

type Q = NotesDb;

export interface NoteFilter { folder?: number | 'none'; tag?: string; q?: string }

const SUMMARY = ['id', 'title', 'folder_id', 'tags', 'updated_at', 'cipher'] as const;
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function filtered(db: Q, userId: number, f: NoteFilter) {
  let q = db.selectFrom('notes').where('user_id', '=', userId);
  if (f.folder === 'none') q = q.where('folder_id', 'is', null);
  else if (f.folder !== undefined) q = q.where('folder_id', '=', f.folder);
  if (f.tag !== undefined) q = q.where(sql<boolean>`tags @> ARRAY[${f.tag}]::text[]`);
  if (f.q !== undefined) {
    // Only plain notes have text the server can read; locked ones are searched in the client once opened.
    const like = `%${likeEscape(f.q)}%`;
    q = q.where('cipher', 'is', null).where((eb) => eb.or([eb('title', 'ilike', like), eb('body_text', 'ilike', like)]));
  }
  return q;
}

export async function listNotes(db: Q, userId: number, f: NoteFilter, offset: number, limit: number) {
  const rows = await filtered(db, userId, f).select(SUMMARY)
    .select(sql<string>`left(coalesce(body_text, ''), 120)`.as('snippet'))
    .orderBy('updated_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();
  const { n } = await filtered(db, userId, f).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: n };
}

export async function findNote(db: Q, userId: number, id: number) {
  return db.selectFrom('notes').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** The row locked for this transaction: wrong tries are counted one at a time. */
export async function lockNoteRow(db: Transaction<Database & NoteTables>, userId: number, id: number) {
  return db.selectFrom('notes').selectAll().where('user_id', '=', userId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export type NoteValues = {
  title: string | null; html: string | null; body_text: string | null;
  cipher: string | null; iv: string | null; salt: string | null; kdf: string | null; iterations: number | null; verifier: Buffer | null;
};

export async function insertNote(db: Q, userId: number, v: NoteValues & { folder_id: number | null; tags: string[] }, now: Date) {
  const r = await db.insertInto('notes').values({ ...v, user_id: userId, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function updateNote(db: Q, userId: number, id: number, v: Partial<NoteValues & { folder_id: number | null; tags: string[] }>, now: Date) {
  await db.updateTable('notes').set({ ...v, updated_at: now }).where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function setTries(db: Q, id: number, failed: number, lockoutUntil: Date | null): Promise<void> {
  await db.updateTable('notes').set({ failed_tries: failed, lockout_until: lockoutUntil }).where('id', '=', id).execute();
}

export async function deleteNote(db: Q, userId: number, id: number): Promise<number> {
  const r = await db.deleteFrom('notes').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function countOwned(db: Q, userId: number, ids: number[]): Promise<number> {
  const { n } = await db.selectFrom('notes').select(sql<number>`count(*)::int`.as('n')).where('user_id', '=', userId).where('id', 'in', ids).executeTakeFirstOrThrow();
  return n;
}

export async function moveNotes(db: Q, userId: number, ids: number[], folderId: number | null): Promise<number> {
  // Moving files a note; it is not an edit, so updated_at (the list order) stays.
  const r = await db.updateTable('notes').set({ folder_id: folderId }).where('user_id', '=', userId).where('id', 'in', ids).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function listFolders(db: Q, userId: number) {
  return db.selectFrom('note_folders as f').select(['f.id', 'f.name'])
    .select(sql<number>`(SELECT count(*)::int FROM notes n WHERE n.folder_id = f.id)`.as('count'))
    .where('f.user_id', '=', userId).orderBy(sql`lower(f.name)`).execute();
}

export async function listTags(db: Q, userId: number) {
  const r = await sql<{ name: string; count: number }>`
    SELECT t AS name, count(*)::int AS count FROM notes, unnest(tags) AS t
    WHERE user_id = ${userId} GROUP BY t ORDER BY lower(t)`.execute(db);
  return r.rows;
}

export async function findFolder(db: Q, userId: number, id: number) {
  return db.selectFrom('note_folders').select(['id', 'name']).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function folderNameTaken(db: Q, userId: number, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('note_folders').select('id').where('user_id', '=', userId).where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function countFolders(db: Q, userId: number): Promise<number> {
  const { n } = await db.selectFrom('note_folders').select(sql<number>`count(*)::int`.as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return n;
}

export async function insertFolder(db: Q, userId: number, name: string) {
  return db.insertInto('note_folders').values({ user_id: userId, name }).returning(['id', 'name']).executeTakeFirstOrThrow();
}

export async function renameFolder(db: Q, userId: number, id: number, name: string): Promise<void> {
  await db.updateTable('note_folders').set({ name }).where('user_id', '=', userId).where('id', '=', id).execute();
}

/** Its notes stay, with no folder (ON DELETE SET NULL). */
export async function deleteFolder(db: Q, userId: number, id: number): Promise<void> {
  await db.deleteFrom('note_folders').where('user_id', '=', userId).where('id', '=', id).execute();
}
