import { sql } from 'kysely';
import type { RuleAction, RuleCondition } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import type { StoredRule } from './rule-evaluator.js';
import './mail-rule.tables.js';
import { contentText } from '../message/message.repository.js';

const toRule = (r: { id: number; name: string; enabled: boolean; match_all: boolean; conditions: RuleCondition[]; actions: RuleAction[]; stop: boolean; position: number }) =>
  ({ id: r.id, name: r.name, enabled: r.enabled, matchAll: r.match_all, conditions: r.conditions, actions: r.actions, stop: r.stop, position: r.position });
export type RuleRow = ReturnType<typeof toRule>;

const columns = ['id', 'user_id', 'name', 'enabled', 'match_all', 'conditions', 'actions', 'stop', 'position'] as const;

export async function listRules(db: Db, userId: number): Promise<RuleRow[]> {
  return (await db.selectFrom('mail_rules').select(columns).where('user_id', '=', userId).orderBy('position').orderBy('id').execute()).map(toRule);
}

/** The enabled rules of several mailboxes, in order: what one delivery needs, in one query. */
export async function enabledRules(db: Db, userIds: number[]): Promise<Map<number, StoredRule[]>> {
  const out = new Map<number, StoredRule[]>(userIds.map((u) => [u, []]));
  if (userIds.length === 0) return out;
  const rows = await db.selectFrom('mail_rules').select(columns).where('user_id', 'in', userIds).where('enabled', '=', true)
    .orderBy('user_id').orderBy('position').orderBy('id').execute();
  for (const r of rows) out.get(r.user_id)?.push(toRule(r));
  return out;
}

export async function findRule(db: Db, userId: number, id: number): Promise<RuleRow | undefined> {
  const r = await db.selectFrom('mail_rules').select(columns).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return r && toRule(r);
}

export async function countRules(db: Db, userId: number): Promise<number> {
  const r = await db.selectFrom('mail_rules').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(r.n);
}

export interface RuleValues { name: string; enabled: boolean; matchAll: boolean; conditions: RuleCondition[]; actions: RuleAction[]; stop: boolean }
const values = (v: RuleValues) => ({
  name: v.name, enabled: v.enabled, match_all: v.matchAll, conditions: JSON.stringify(v.conditions), actions: JSON.stringify(v.actions), stop: v.stop,
});

export async function insertRule(db: Db, userId: number, v: RuleValues): Promise<number> {
  const r = await db.insertInto('mail_rules').values({
    user_id: userId, ...values(v),
    position: sql<number>`(SELECT coalesce(max(position), 0) + 1 FROM mail_rules WHERE user_id = ${userId})`,
  }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function updateRule(db: Db, userId: number, id: number, v: RuleValues, now: Date): Promise<void> {
  await db.updateTable('mail_rules').set({ ...values(v), updated_at: now }).where('user_id', '=', userId).where('id', '=', id).execute();
}

/**
 * The rule's jobs go first: a job batch holds its job row and then needs the rule row
 * (its effects reference it), so deleting in the other order could deadlock with it.
 */
export async function deleteRule(db: Db, userId: number, id: number): Promise<void> {
  await db.deleteFrom('mail_rule_jobs').where('user_id', '=', userId).where('rule_id', '=', id).execute();
  await db.deleteFrom('mail_rules').where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function setPositions(db: Db, userId: number, ids: number[]): Promise<void> {
  for (const [i, id] of ids.entries()) {
    await db.updateTable('mail_rules').set({ position: i + 1 }).where('user_id', '=', userId).where('id', '=', id).execute();
  }
}

/** Which of these folders exist in the mailbox (a rule may name one deleted since). */
export async function existingFolders(db: Db, userId: number, mids: number[]): Promise<Set<number>> {
  if (mids.length === 0) return new Set();
  const rows = await db.selectFrom('folders').select('mid').where('user_id', '=', userId).where('mid', 'in', mids).execute();
  return new Set(rows.map((r) => r.mid));
}

export async function tagExists(db: Db, userId: number, id: number): Promise<boolean> {
  return Boolean(await db.selectFrom('tags').select('id').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst());
}

/** Tags rows with the mailbox's own tags only: a tag deleted since the rule was saved is skipped, never an error. */
export async function tagRows(db: Db, pairs: { messageId: number; userId: number; tagIds: number[] }[]): Promise<void> {
  for (const p of pairs) {
    if (p.tagIds.length === 0) continue;
    await sql`INSERT INTO message_tags (message_id, tag_id)
      SELECT ${p.messageId}, id FROM tags WHERE user_id = ${p.userId} AND id = ANY(${p.tagIds}::bigint[])
      ON CONFLICT DO NOTHING`.execute(db);
  }
}

/** Records effects that must happen once; returns the ones that were new (the others already happened). */
export async function claimEffects(db: Db, rows: { ruleId: number; messageId: number; kind: string }[], now: Date): Promise<{ ruleId: number; messageId: number; kind: string }[]> {
  if (rows.length === 0) return [];
  const got = await db.insertInto('mail_rule_effects')
    .values(rows.map((r) => ({ rule_id: r.ruleId, message_id: r.messageId, kind: r.kind, created_at: now })))
    .onConflict((oc) => oc.doNothing()).returning(['rule_id', 'message_id', 'kind']).execute();
  return got.map((r) => ({ ruleId: r.rule_id, messageId: r.message_id, kind: r.kind }));
}

/** What a rule test needs of stored mail, newest first (dry run), or by id from a cursor (jobs). */
const storedColumns = sql`m.id, m.size, m.has_attach, m.blob_hash, m.folder_mid, c.subject, c.from_name, c.from_address, c.to_list, c.cc_list, left(${contentText()}, ${100_000}) AS body`;
export interface StoredMail {
  id: number; size: number; has_attach: boolean; blob_hash: string; folder_mid: number; subject: string; from_name: string; from_address: string;
  to_list: { address: string }[]; cc_list: { address: string }[]; body: string;
}

export async function latestMail(db: Db, userId: number, limit: number): Promise<StoredMail[]> {
  const r = await sql<StoredMail>`SELECT ${storedColumns} FROM messages m JOIN mail_contents c ON c.id = m.content_id
    WHERE m.user_id = ${userId} AND m.folder_mid NOT IN (1, 2) ORDER BY m.received_at DESC, m.id DESC LIMIT ${limit}`.execute(db);
  return r.rows;
}

export async function folderMailAfter(db: Db, userId: number, folderMid: number, afterId: number, limit: number): Promise<StoredMail[]> {
  const r = await sql<StoredMail>`SELECT ${storedColumns} FROM messages m JOIN mail_contents c ON c.id = m.content_id
    WHERE m.user_id = ${userId} AND m.folder_mid = ${folderMid} AND m.id > ${afterId} ORDER BY m.id LIMIT ${limit}`.execute(db);
  return r.rows;
}

export async function countFolder(db: Db, userId: number, folderMid: number): Promise<number> {
  const r = await db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('folder_mid', '=', folderMid).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Who forwards or answers: the mailbox's address, name, company and its domain's DKIM key. */
export async function mailboxes(db: Db, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db.selectFrom('users as u').innerJoin('domains as d', 'd.id', 'u.domain_id')
    .select(['u.id', 'u.email', 'u.name', 'u.company_id as companyId', 'd.name as domain', 'd.dkim_selector as selector', 'd.dkim_private_key as privateKey'])
    .where('u.id', 'in', userIds).execute();
}
