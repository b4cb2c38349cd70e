import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

export interface ContactRow {
  name: string; email: string; phone: string; company: string; job_title: string; job_number: string; important: boolean; initial: string; sort_key: string;
}

export async function listContacts(db: Db, userId: number, q: string, groupId?: number) {
  let query = db.selectFrom('contacts as c').select(['c.id', 'c.name', 'c.email', 'c.phone', 'c.company', 'c.job_title', 'c.job_number', 'c.important', 'c.initial'])
    .select(sql<number[]>`array(SELECT gm.group_id FROM contact_group_members gm WHERE gm.contact_id = c.id ORDER BY gm.group_id)`.as('group_ids'))
    .where('c.user_id', '=', userId);
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    // Pinyin too: "lilei" or "li lei" finds 李雷.
    query = query.where((eb) => eb.or([eb('c.name', 'ilike', like), eb('c.email', 'ilike', like), eb('c.sort_key', 'ilike', like),
      eb(sql`replace(c.sort_key, ' ', '')`, 'ilike', like), eb('c.company', 'ilike', like), eb('c.phone', 'ilike', like),
      // Pinyin initials too (issue 15): "zw" finds 张伟 ("zhang wei" → "zw").
      eb(sql`array_to_string(array(SELECT left(w, 1) FROM unnest(string_to_array(ltrim(c.sort_key, '~'), ' ')) AS w), '')`, 'ilike', like)]));
  }
  if (groupId !== undefined) {
    query = query.where(({ exists, selectFrom }) => exists(selectFrom('contact_group_members as gm').select(sql`1`.as('x')).whereRef('gm.contact_id', '=', 'c.id').where('gm.group_id', '=', groupId)));
  }
  return query.orderBy('c.important', 'desc').orderBy('c.sort_key').orderBy('c.id').limit(5000).execute();
}

export async function listGroups(db: Db, userId: number) {
  return db.selectFrom('contact_groups as g').select(['g.id', 'g.name'])
    .select(sql<number>`(SELECT count(*)::int FROM contact_group_members gm WHERE gm.group_id = g.id)`.as('count'))
    .where('g.user_id', '=', userId).orderBy('g.name').execute();
}

export async function findContact(db: Db, userId: number, id: number) {
  return db.selectFrom('contacts').select(['id', 'email']).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function findByEmail(db: Db, userId: number, email: string) {
  return db.selectFrom('contacts').select(['id']).where('user_id', '=', userId).where('email', '=', email).executeTakeFirst();
}

export async function insertContact(db: Db, userId: number, v: ContactRow): Promise<number> {
  const row = await db.insertInto('contacts').values({ user_id: userId, ...v }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateContact(db: Db, userId: number, id: number, v: ContactRow): Promise<void> {
  await db.updateTable('contacts').set({ ...v, updated_at: new Date() }).where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function deleteContacts(db: Db, userId: number, ids: number[]): Promise<number> {
  const r = await db.deleteFrom('contacts').where('user_id', '=', userId).where('id', 'in', ids).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function ownedContactIds(db: Db, userId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('contacts').select('id').where('user_id', '=', userId).where('id', 'in', ids).execute()).map((r) => r.id);
}

export async function setImportant(db: Db, userId: number, id: number, important: boolean): Promise<number> {
  const r = await db.updateTable('contacts').set({ important }).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function setMemberships(db: Db, contactId: number, groupIds: number[]): Promise<void> {
  await db.deleteFrom('contact_group_members').where('contact_id', '=', contactId).execute();
  if (groupIds.length > 0) await db.insertInto('contact_group_members').values(groupIds.map((g) => ({ group_id: g, contact_id: contactId }))).execute();
}

export async function addMembers(db: Db, groupId: number, contactIds: number[]): Promise<void> {
  if (contactIds.length > 0) await db.insertInto('contact_group_members').values(contactIds.map((c) => ({ group_id: groupId, contact_id: c }))).onConflict((oc) => oc.doNothing()).execute();
}

export async function removeMembers(db: Db, groupId: number, contactIds: number[]): Promise<void> {
  if (contactIds.length > 0) await db.deleteFrom('contact_group_members').where('group_id', '=', groupId).where('contact_id', 'in', contactIds).execute();
}

export async function ownedGroupIds(db: Db, userId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('contact_groups').select('id').where('user_id', '=', userId).where('id', 'in', ids).execute()).map((r) => r.id);
}

export async function groupByName(db: Db, userId: number, name: string) {
  return db.selectFrom('contact_groups').select(['id', 'name']).where('user_id', '=', userId).where(sql<string>`lower(name)`, '=', name.toLowerCase()).executeTakeFirst();
}

export async function insertGroup(db: Db, userId: number, name: string): Promise<number> {
  return (await db.insertInto('contact_groups').values({ user_id: userId, name }).returning('id').executeTakeFirstOrThrow()).id;
}

export async function renameGroup(db: Db, userId: number, id: number, name: string): Promise<number> {
  return Number((await db.updateTable('contact_groups').set({ name }).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()).numUpdatedRows);
}

export async function deleteGroup(db: Db, userId: number, id: number): Promise<number> {
  return Number((await db.deleteFrom('contact_groups').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()).numDeletedRows);
}

export async function groupNamesOf(db: Db, userId: number) {
  return db.selectFrom('contact_group_members as gm').innerJoin('contact_groups as g', 'g.id', 'gm.group_id')
    .select(['gm.contact_id', 'g.name']).where('g.user_id', '=', userId).execute();
}

// ---- sender rules ----

export async function listRules(db: Db, userId: number, limit?: number) {
  const q = db.selectFrom('sender_rules').select(['kind', 'pattern']).where('user_id', '=', userId).orderBy('pattern');
  return (limit === undefined ? q : q.limit(limit)).execute();
}

export async function addRule(db: Db, userId: number, kind: 'block' | 'allow', pattern: string): Promise<void> {
  await db.insertInto('sender_rules').values({ user_id: userId, kind, pattern }).onConflict((oc) => oc.doNothing()).execute();
}

export async function deleteRule(db: Db, userId: number, kind: 'block' | 'allow', pattern: string): Promise<void> {
  await db.deleteFrom('sender_rules').where('user_id', '=', userId).where('kind', '=', kind).where('pattern', '=', pattern).execute();
}

/** What a rule may name for these senders: each address and its domain. */
export function senderPatterns(senders: string[]): string[] {
  return [...new Set(senders.flatMap((a) => [a, a.split('@')[1] ?? '']).filter(Boolean))];
}

/** The rules of these mailboxes that name any of these senders' addresses or domains. */
export async function rulesFor(db: Db, userIds: number[], senders: string[]) {
  const patterns = senderPatterns(senders);
  if (userIds.length === 0 || patterns.length === 0) return [];
  return db.selectFrom('sender_rules').select(['user_id', 'kind']).where('user_id', 'in', userIds).where('pattern', 'in', patterns).execute();
}
