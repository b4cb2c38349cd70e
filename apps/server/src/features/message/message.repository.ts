import { sql, type ExpressionBuilder } from 'kysely';
import { threadSubject, type Address, type QuickFilter } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { preparedStatement } from '../../db/prepared.js';
import type { Database, NewMessage } from '../../db/types.js';
import type { ParsedContent } from './mail-parse.js';
import { peopleKey } from '../conversation/people-key.js';

// Every query here takes the owner's user id: a message id alone never reaches a row.

/**
 * A content's text, as every reader gets it: a received plain-text mail's is read from its blob
 * row (migration 043, `text_tail`), anything else's from `text_body`. `c` is the mail_contents alias.
 */
export const contentText = (c = 'c') => sql<string>`mw_content_text(${sql.ref(`${c}.text_body`)}, ${sql.ref(`${c}.blob_hash`)}, ${sql.ref(`${c}.text_tail`)})`;

/** The mail_contents columns of a parsed mail: the one mapping, for compose (insertContents) and ingest (filing.repository.ts). */
export function contentColumns(hash: string, p: ParsedContent) {
  return {
    blob_hash: hash, message_id: p.messageId, in_reply_to: p.inReplyTo, references_list: p.references, subject: p.subject,
    from_name: p.from.name, from_address: p.from.address, to_list: JSON.stringify(p.to), cc_list: JSON.stringify(p.cc),
    reply_to: JSON.stringify(p.replyTo), thread_subject: threadSubject(p.subject), people_key: peopleKey(p), sent_at: p.date, snippet: p.snippet, html: p.html, text_body: p.text,
    attachments: JSON.stringify(p.attachments), remote_images: p.remoteImages.length > 0, urgent: p.urgent, parse_error: p.parseError,
  };
}

/**
 * Inserts parsed contents and queues them for the search indexer (migration 037), in one
 * statement; ids come back in input order. One statement rather than two: each statement is
 * a round trip and a parse and plan on the database (issue 13, CPU per delivered mail).
 */
export async function insertContents(db: Db, items: { hash: string; content: ParsedContent }[]): Promise<number[]> {
  const values = items.map(({ hash, content }) => contentColumns(hash, content));
  const rows = await db.with('c', (w) => w.insertInto('mail_contents').values(values).returning('id'))
    .with('s', (w) => w.insertInto('search_pending').columns(['content_id']).expression((eb) => eb.selectFrom('c').select('id')))
    .selectFrom('c').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function insertMessages(db: Db, rows: NewMessage[]): Promise<number[]> {
  if (rows.length === 0) return [];
  // PostgreSQL returns the rows of one INSERT … VALUES in the order given.
  const out = await db.insertInto('messages').values(rows).returning('id').execute();
  return out.map((r) => r.id);
}

/** Whether the sender is one of the mailbox's important contacts (issue 6). */
const importantSender = sql<boolean>`EXISTS (SELECT 1 FROM contacts ct WHERE ct.user_id = m.user_id AND ct.important AND ct.email = c.from_address)`;
const fromImportant = importantSender.as('from_important');

/**
 * The sender's directory photo (issue 14): the avatar of an active member of the
 * reader's own company whose address sent it. One unique-index lookup per row of the
 * page, in the list query itself, so the list needs no request per sender. The reader's
 * company is asked once per statement, not once per row (issue 13).
 */
export const senderAvatar = (userId: number) => sql<string | null>`(SELECT u.avatar_hash FROM users u WHERE u.email = lower(c.from_address) AND u.status = 'active'
  AND u.company_id = (SELECT me.company_id FROM users me WHERE me.id = ${userId}))`;
const fromAvatar = (userId: number) => senderAvatar(userId).as('from_avatar');

const summaryColumns = [
  'm.id', 'm.folder_mid', 'm.size', 'm.received_at', 'm.seen', 'm.star', 'm.urgent', 'm.answered', 'm.forwarded', 'm.has_attach',
  'm.delivery_state', 'm.send_at', 'c.subject', 'c.from_name', 'c.from_address', 'c.to_list', 'c.snippet', 'c.sent_at',
] as const;

export interface ListFilter { filter?: QuickFilter; tagId?: number }

/** The whole folder, unfiltered: the list asked most, and the one that runs prepared (folderPage). */
const unfiltered = (f: ListFilter): boolean => f.filter === undefined && f.tagId === undefined;

/** The folder's rows, narrowed by a quick filter and/or a tag. */
function folderRows(db: Db, userId: number, folderMid: number, f: ListFilter) {
  let q = db.selectFrom('messages').where('user_id', '=', userId).where('folder_mid', '=', folderMid);
  if (f.filter === 'unread') q = q.where('seen', '=', false);
  if (f.filter === 'starred') q = q.where('star', '=', true);
  if (f.filter === 'urgent') q = q.where('urgent', '=', true);
  if (f.filter === 'attach') q = q.where('has_attach', '=', true);
  if (f.tagId !== undefined) {
    const tagId = f.tagId;
    q = q.where(({ exists, selectFrom }) => exists(selectFrom('message_tags').select(sql`1`.as('x')).whereRef('message_tags.message_id', '=', 'messages.id').where('message_tags.tag_id', '=', tagId)));
  }
  return q;
}

export async function countFolder(db: Db, userId: number, folderMid: number, f: ListFilter): Promise<number> {
  const row = await folderRows(db, userId, folderMid, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A listed mail's tag names, in order. Most mail has none: the EXISTS probe spares those rows
 * the sort, which was set up afresh for each row of a page (issue 13).
 */
export const tagNames = sql<string[]>`CASE WHEN EXISTS (SELECT 1 FROM message_tags x WHERE x.message_id = m.id)
  THEN array(SELECT t.name FROM message_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.message_id = m.id ORDER BY t.name) ELSE '{}'::text[] END`;

/** A listed mail's row by its id. LIMIT 1 keeps it a primary-key lookup per id in any plan (a fence: the planner cannot merge it into a join). */
function summaryOf(db: Db, userId: number) {
  return db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
    .select(['m.id', 'm.received_at']).select(packedSummary(userId).as('packed'))
    .where('m.id', '=', sql.ref<number>('p.id')).limit(sql.lit(1));
}

/** An instant as whole milliseconds since the epoch, the way Date keeps it (truncated, as db/type-parsers.ts reads one). */
const epochMs = (column: string) => sql<number | null>`(date_part('epoch', date_trunc('milliseconds', ${sql.ref(column)})) * 1000)::int8`;

/**
 * A listed mail as one JSON array, in SummaryRow's order (unpack; the test in mail-list-plan.test.ts holds the two to findOne's columns): a page comes back as one
 * value of one row, parsed natively, not as 20 rows of 21 columns that the driver decodes
 * field by field, which was a fifth of a list request's CPU (issue 13). Times travel as
 * milliseconds, not text.
 */
const packedSummary = (userId: number) => sql<Packed>`json_build_array(m.id, m.folder_mid, m.size, ${epochMs('m.received_at')}, m.seen, m.star, m.urgent,
  m.answered, m.forwarded, m.has_attach, m.delivery_state, ${epochMs('m.send_at')}, c.subject, c.from_name, c.from_address, c.to_list, c.snippet,
  ${epochMs('c.sent_at')}, ${importantSender}, ${senderAvatar(userId)}, ${tagNames})`;

type Packed = [number, number, number, number, boolean, boolean, boolean, boolean, boolean, boolean, string | null, number | null, string, string, string, Address[], string, number | null, boolean, string | null, string[]];

/** A mail as the list shows it (toSummary). */
export interface SummaryRow {
  id: number; folder_mid: number; size: number; received_at: Date; seen: boolean; star: boolean; urgent: boolean; answered: boolean; forwarded: boolean;
  has_attach: boolean; delivery_state: string | null; send_at: Date | null; subject: string; from_name: string; from_address: string; to_list: Address[];
  snippet: string; sent_at: Date | null; from_important: boolean; from_avatar: string | null; tags: string[];
}

const dateOf = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

function unpack(r: Packed): SummaryRow {
  return {
    id: r[0], folder_mid: r[1], size: r[2], received_at: new Date(r[3]), seen: r[4], star: r[5], urgent: r[6], answered: r[7], forwarded: r[8],
    has_attach: r[9], delivery_state: r[10], send_at: dateOf(r[11]), subject: r[12], from_name: r[13], from_address: r[14], to_list: r[15],
    snippet: r[16], sent_at: dateOf(r[17]), from_important: r[18], from_avatar: r[19], tags: r[20],
  };
}

/**
 * One page of a folder, newest first, with each row's tag names. The page's ids come from
 * the (user, folder, time) index alone, and only those rows are looked up: OFFSET then
 * skips index entries, not joined rows, so page 500 stays cheap. A plain list takes its
 * ids from mw_folder_page_ids (migrations 034 and 041), whose one generic plan reads that
 * index in order for any page, so the statement around it is prepared once too; a filtered
 * list plans the whole statement with its values.
 */
function pageQuery(db: Db, userId: number, folderMid: number, limit: number, offset: number, f: ListFilter) {
  const ids = unfiltered(f)
    ? db.selectFrom(sql<{ id: number }>`(SELECT i AS id FROM mw_folder_page_ids(${userId}, ${folderMid}, ${limit}, ${offset}) AS i)`.as('p'))
    : db.selectFrom(folderRows(db, userId, folderMid, f).select('id')
      .orderBy('received_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).as('p'));
  return ids.innerJoinLateral(summaryOf(db, userId).as('m'), (join) => join.onTrue()).selectAll('m');
}

/**
 * The folder's counters and one page of it in a single round trip (issue 13: the
 * folder check was a query of its own on every list). No row at all means there is
 * no such folder of the user's. The plain list, the one asked most, is a prepared
 * statement (its planning cost more than its work).
 */
function folderPageQuery(db: Db, userId: number, folderMid: number, limit: number, offset: number, f: ListFilter) {
  const page = pageQuery(db, userId, folderMid, limit, offset, f);
  return db.selectFrom('folders as f')
    .select(['f.total as folderTotal', 'f.unread as folderUnread'])
    .select(sql<Packed[]>`(SELECT coalesce(json_agg(r.packed ORDER BY r.received_at DESC, r.id DESC), '[]'::json) FROM (${page}) AS r)`.as('rows'))
    .where('f.user_id', '=', userId).where('f.mid', '=', folderMid);
}
const plainFolderPage = preparedStatement('folder_page', (db, userId: number, folderMid: number, limit: number, offset: number) =>
  folderPageQuery(db, userId, folderMid, limit, offset, {}));

export async function folderPage(db: Db, userId: number, folderMid: number, limit: number, offset: number, f: ListFilter = {}) {
  const rows = unfiltered(f) ? await plainFolderPage(db, userId, folderMid, limit, offset) : await folderPageQuery(db, userId, folderMid, limit, offset, f).execute();
  const row = rows[0];
  if (!row) return null;
  return { total: row.folderTotal, unread: row.folderUnread, rows: row.rows.map(unpack) };
}

export async function tagsOf(db: Db, messageIds: number[]): Promise<Map<number, string[]>> {
  const map = new Map<number, string[]>();
  if (messageIds.length === 0) return map;
  const rows = await db.selectFrom('message_tags as mt').innerJoin('tags as t', 't.id', 'mt.tag_id')
    .select(['mt.message_id', 't.name']).where('mt.message_id', 'in', messageIds).orderBy('t.name').execute();
  for (const r of rows) map.set(r.message_id, [...(map.get(r.message_id) ?? []), r.name]);
  return map;
}

export async function findOne(db: Db, userId: number, id: number) {
  return db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
    .select(fromImportant).select(fromAvatar(userId)).select([...summaryColumns, 'm.bcc', 'm.note', 'm.images_allowed', 'm.blob_hash', 'c.cc_list', 'c.reply_to', 'c.html',
      'c.attachments', 'c.message_id', 'c.remote_images', 'c.thread_subject', 'c.in_reply_to', 'c.references_list', 'm.content_id', 'm.auth_results', 'm.conv_id'])
    .select(contentText().as('text_body'))
    .where('m.user_id', '=', userId).where('m.id', '=', id).executeTakeFirst();
}

/** The ids either side of a message in its folder's newest-first order. */
export async function neighbours(db: Db, userId: number, folderMid: number, receivedAt: Date, id: number) {
  const base = db.selectFrom('messages').select('id').where('user_id', '=', userId).where('folder_mid', '=', folderMid);
  const newer = await base.where((eb) => eb.or([eb('received_at', '>', receivedAt), eb.and([eb('received_at', '=', receivedAt), eb('id', '>', id)])]))
    .orderBy('received_at', 'asc').orderBy('id', 'asc').limit(1).executeTakeFirst();
  const older = await base.where((eb) => eb.or([eb('received_at', '<', receivedAt), eb.and([eb('received_at', '=', receivedAt), eb('id', '<', id)])]))
    .orderBy('received_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return { prev: newer?.id ?? null, next: older?.id ?? null };
}

/** Locks the caller's rows among `ids`; the caller compares counts to refuse foreign or missing ids. */
export async function lockOwned(db: Db, userId: number, ids: number[]) {
  return db.selectFrom('messages').select(['id', 'folder_mid', 'blob_hash', 'content_id', 'size']).where('user_id', '=', userId).where('id', 'in', ids)
    .orderBy('id').forUpdate().execute();
}

const owned = (userId: number, ids: number[]) => (eb: ExpressionBuilder<Database, 'messages'>) =>
  eb.and([eb('user_id', '=', userId), eb('id', 'in', ids)]);

export async function setSeen(db: Db, userId: number, ids: number[], seen: boolean): Promise<number> {
  const r = await db.updateTable('messages').set({ seen }).where(owned(userId, ids)).where('seen', '=', !seen).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function setStar(db: Db, userId: number, ids: number[], star: boolean): Promise<number> {
  const r = await db.updateTable('messages').set({ star }).where(owned(userId, ids)).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function moveTo(db: Db, userId: number, ids: number[], folderMid: number): Promise<number> {
  const r = await db.updateTable('messages').set({ folder_mid: folderMid }).where(owned(userId, ids)).where('folder_mid', '<>', folderMid).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function markFolderRead(db: Db, userId: number, folderMid: number): Promise<number> {
  const r = await db.updateTable('messages').set({ seen: true }).where('user_id', '=', userId).where('folder_mid', '=', folderMid).where('seen', '=', false).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function allowImages(db: Db, userId: number, id: number): Promise<void> {
  await db.updateTable('messages').set({ images_allowed: true }).where('user_id', '=', userId).where('id', '=', id).execute();
}

/** Deletes rows by id; callers have already checked ownership under lock. */
export async function deleteRows(db: Db, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('messages').where('id', 'in', ids).execute();
}

/** Drops parsed contents that no mailbox points at any more; returns their blob hashes. */
export async function deleteOrphanContents(db: Db, contentIds: number[]): Promise<string[]> {
  if (contentIds.length === 0) return [];
  const rows = await db.deleteFrom('mail_contents').where('id', 'in', contentIds)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('messages').select(sql`1`.as('x')).whereRef('messages.content_id', '=', 'mail_contents.id'))))
    .returning('blob_hash').execute();
  return rows.map((r) => r.blob_hash);
}

export async function setNote(db: Db, userId: number, id: number, note: string): Promise<number> {
  const r = await db.updateTable('messages').set({ note }).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Moves a batch of users' Inbox mail older than each one's auto-archive age into MailHistory. */
export async function autoArchive(db: Db, limit: number): Promise<number> {
  const r = await sql`
    UPDATE messages m SET folder_mid = 6 FROM (
      SELECT m2.id FROM users u JOIN messages m2 ON m2.user_id = u.id AND m2.folder_mid = 0
      WHERE u.auto_archive_days IS NOT NULL AND m2.received_at < now() - make_interval(days => u.auto_archive_days)
      ORDER BY m2.id LIMIT ${limit} FOR UPDATE OF m2 SKIP LOCKED) old
    WHERE m.id = old.id`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

export async function setAutoArchive(db: Db, userId: number, days: number | null): Promise<void> {
  await db.updateTable('users').set({ auto_archive_days: days }).where('id', '=', userId).execute();
}

export async function getAutoArchive(db: Db, userId: number): Promise<number | null> {
  const row = await db.selectFrom('users').select('auto_archive_days').where('id', '=', userId).executeTakeFirst();
  return row?.auto_archive_days ?? null;
}
