import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { contentText } from '../message/message.repository.js';
import { withAuditTables, type AuditItemState, type AuditRuleKind, type AuditRuleParams } from './tables.js';

// Audit rules, held mail, decisions and links. Every admin/auditor query is scoped by company.

const OPEN: AuditItemState[] = ['waiting', 'auditing'];

export async function enabledRules(db: Db, companyId: number) {
  return withAuditTables(db).selectFrom('audit_rules').select(['id', 'kind', 'params', 'auditors', 'timeout_min', 'on_timeout'])
    .where('company_id', '=', companyId).where('enabled', '=', true).orderBy('id').execute();
}

export async function listRules(db: Db, companyId: number) {
  return withAuditTables(db).selectFrom('audit_rules').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
}

export interface RuleValues { name: string; kind: AuditRuleKind; params: AuditRuleParams; auditors: number[]; timeoutMin: number; onTimeout: 'pass' | 'reject'; enabled: boolean }

export async function insertRule(db: Db, companyId: number, v: RuleValues): Promise<number> {
  const row = await withAuditTables(db).insertInto('audit_rules').values({
    company_id: companyId, name: v.name, kind: v.kind, params: JSON.stringify(v.params), auditors: v.auditors, timeout_min: v.timeoutMin, on_timeout: v.onTimeout, enabled: v.enabled,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRule(db: Db, companyId: number, id: number, v: RuleValues): Promise<boolean> {
  const r = await withAuditTables(db).updateTable('audit_rules').set({
    name: v.name, kind: v.kind, params: JSON.stringify(v.params), auditors: v.auditors, timeout_min: v.timeoutMin, on_timeout: v.onTimeout, enabled: v.enabled,
  }).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function deleteRule(db: Db, companyId: number, id: number): Promise<boolean> {
  const r = await withAuditTables(db).deleteFrom('audit_rules').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Active users of this company among `ids` (auditors must be real colleagues). */
export async function userDepartments(db: Db, companyId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('users').select(['id', 'department_id']).where('company_id', '=', companyId).where('id', 'in', ids).execute();
}
export async function companyUsers(db: Db, companyId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('users').select(['id', 'email', 'name', 'language']).where('company_id', '=', companyId).where('id', 'in', ids).execute();
}

/** The sender's department and all above it. */
export async function departmentChain(db: Db, userId: number): Promise<number[]> {
  const r = await sql<{ id: number }>`
    WITH RECURSIVE up(id, parent_id) AS (
      SELECT d.id, d.parent_id FROM users u JOIN departments d ON d.id = u.department_id WHERE u.id = ${userId}
      UNION SELECT d.id, d.parent_id FROM departments d JOIN up ON d.id = up.parent_id)
    SELECT id FROM up`.execute(db);
  return r.rows.map((x) => Number(x.id));
}

export async function insertItem(db: Db, v: { companyId: number; messageId: number; senderId: number; ruleIds: number[]; auditors: number[]; dueAt: Date; onTimeout: 'pass' | 'reject' }): Promise<number> {
  const row = await withAuditTables(db).insertInto('audit_items').values({
    company_id: v.companyId, message_id: v.messageId, sender_id: v.senderId, rule_ids: v.ruleIds, auditors: v.auditors, due_at: v.dueAt, on_timeout: v.onTimeout,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const ITEM_COLS = ['i.id', 'i.company_id', 'i.message_id', 'i.sender_id', 'i.rule_ids', 'i.auditors', 'i.state', 'i.reason', 'i.due_at', 'i.on_timeout', 'i.decided_at', 'i.created_at'] as const;

function items(db: Db) {
  return withAuditTables(db).selectFrom('audit_items as i').innerJoin('messages as m', 'm.id', 'i.message_id').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
    .select([...ITEM_COLS, 'm.size', 'm.send_at', 'c.subject', 'c.from_name', 'c.from_address', 'c.to_list', 'c.cc_list', 'm.bcc']).select(contentText().as('text'));
}
export type ItemRow = Awaited<ReturnType<typeof itemById>> & object;

/** Who may see an item: one of its auditors, or an admin of its company. */
export interface Viewer { userId: number; companyId: number; admin: boolean }

function visibleTo(q: ReturnType<typeof items>, v: Viewer) {
  return q.where('i.company_id', '=', v.companyId)
    .where((eb) => (v.admin ? eb.val(true) : eb(sql<number[]>`i.auditors`, '@>', sql<number[]>`ARRAY[${v.userId}]::bigint[]`)));
}

export async function itemById(db: Db, id: number) {
  return items(db).where('i.id', '=', id).executeTakeFirst();
}

export async function itemFor(db: Db, v: Viewer, id: number) {
  return visibleTo(items(db), v).where('i.id', '=', id).executeTakeFirst();
}

export async function itemsFor(db: Db, v: Viewer, open: boolean, offset: number, limit: number) {
  const base = visibleTo(items(db), v).where('i.state', open ? 'in' : 'not in', OPEN);
  const rows = await base.orderBy('i.created_at', open ? 'asc' : 'desc').orderBy('i.id').offset(offset).limit(limit).execute();
  const { n } = await withAuditTables(db).selectFrom('audit_items as i').select(sql<number>`count(*)::int`.as('n'))
    .where('i.company_id', '=', v.companyId).where('i.state', open ? 'in' : 'not in', OPEN)
    .where((eb) => (v.admin ? eb.val(true) : eb(sql<number[]>`i.auditors`, '@>', sql<number[]>`ARRAY[${v.userId}]::bigint[]`)))
    .executeTakeFirstOrThrow();
  return { rows, total: n };
}

export async function itemOfSent(db: Db, senderId: number, messageId: number) {
  return withAuditTables(db).selectFrom('audit_items').select(['state', 'reason', 'decided_at', 'due_at'])
    .where('sender_id', '=', senderId).where('message_id', '=', messageId).executeTakeFirst();
}

export async function lockItem(db: Db, id: number) {
  return withAuditTables(db).selectFrom('audit_items').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function lockItemOfMessage(db: Db, messageId: number) {
  return withAuditTables(db).selectFrom('audit_items').selectAll().where('message_id', '=', messageId).forUpdate().executeTakeFirst();
}

/** Open items past their timeout, for this node only. */
export async function lockDue(db: Db, now: Date, limit: number) {
  return withAuditTables(db).selectFrom('audit_items').selectAll().where('state', 'in', OPEN).where('due_at', '<=', now)
    .orderBy('due_at').limit(limit).forUpdate().skipLocked().execute();
}

export async function setState(db: Db, id: number, v: { state: AuditItemState; reason?: string | null; decidedBy?: number | null; decidedAt?: Date }): Promise<void> {
  await withAuditTables(db).updateTable('audit_items').set({
    state: v.state, ...(v.reason !== undefined ? { reason: v.reason } : {}), ...(v.decidedBy !== undefined ? { decided_by: v.decidedBy } : {}),
    ...(v.decidedAt ? { decided_at: v.decidedAt } : {}),
  }).where('id', '=', id).execute();
}

export async function log(db: Db, v: { companyId: number; itemId: number; messageId: number; action: string; actorId: number | null; via: string; reason?: string | null; at: Date }): Promise<void> {
  await withAuditTables(db).insertInto('audit_log').values({
    company_id: v.companyId, item_id: v.itemId, message_id: v.messageId, action: v.action, actor_id: v.actorId, via: v.via, reason: v.reason ?? null, at: v.at,
  }).execute();
}

export async function logOf(db: Db, companyId: number, limit: number) {
  return withAuditTables(db).selectFrom('audit_log as l').leftJoin('users as u', 'u.id', 'l.actor_id')
    .leftJoin('messages as m', 'm.id', 'l.message_id').leftJoin('mail_contents as c', 'c.id', 'm.content_id')
    .select(['l.id', 'l.item_id', 'l.action', 'l.via', 'l.reason', 'l.at', 'u.email as actor', 'c.subject'])
    .where('l.company_id', '=', companyId).orderBy('l.id', 'desc').limit(limit).execute();
}

export async function insertLinks(db: Db, rows: { itemId: number; auditorId: number; action: 'pass' | 'reject'; hash: Buffer; expiresAt: Date }[]): Promise<void> {
  if (rows.length === 0) return;
  await withAuditTables(db).insertInto('audit_links').values(rows.map((r) => ({
    item_id: r.itemId, auditor_id: r.auditorId, action: r.action, token_hash: r.hash, expires_at: r.expiresAt,
  }))).execute();
}

export async function linkByHash(db: Db, hash: Buffer, lock: boolean) {
  const q = withAuditTables(db).selectFrom('audit_links').selectAll().where('token_hash', '=', hash);
  return lock ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

export async function spendLink(db: Db, id: number, at: Date): Promise<void> {
  await withAuditTables(db).updateTable('audit_links').set({ used_at: at }).where('id', '=', id).execute();
}

// ---- the held dispatch (compose's table) ----

/**
 * A decision to pass turns the held dispatch into a scheduled one, and the durable timed-send
 * worker delivers it. Its send_at is the send's moment, or a timed send's chosen time, which
 * it keeps: passed early, a timed mail still waits for its time.
 */
export async function releaseDispatch(db: Db, messageId: number): Promise<void> {
  await db.updateTable('dispatches').set({ state: 'scheduled' })
    .where('message_id', '=', messageId).where('state', '=', 'held').execute();
}

export async function dropDispatch(db: Db, messageId: number): Promise<void> {
  await db.deleteFrom('dispatches').where('message_id', '=', messageId).where('state', '=', 'held').execute();
}

export async function setSentState(db: Db, messageId: number, state: string): Promise<void> {
  await db.updateTable('messages').set({ delivery_state: state }).where('id', '=', messageId).execute();
}
