import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

// Uploads, waiting sends, and the per-recipient record of sent mail. Every query
// is scoped by the owner's user id where a client supplies the id.

export async function senderProfile(db: Db, userId: number) {
  return db.selectFrom('users as u').innerJoin('domains as d', 'd.id', 'u.domain_id')
    .select(['u.id', 'u.email', 'u.name', 'u.company_id', 'u.language', 'd.name as domain', 'd.dkim_selector', 'd.dkim_private_key'])
    .where('u.id', '=', userId).executeTakeFirstOrThrow();
}
export type SenderProfile = Awaited<ReturnType<typeof senderProfile>>;

export async function insertUpload(db: Db, v: { userId: number; hash: string; name: string; size: number; contentType: string }): Promise<number> {
  const row = await db.insertInto('uploads').values({ user_id: v.userId, blob_hash: v.hash, name: v.name, size: v.size, content_type: v.contentType })
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function uploadsOf(db: Db, userId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('uploads').select(['id', 'blob_hash', 'name', 'size', 'content_type']).where('user_id', '=', userId).where('id', 'in', ids).execute();
}

/** Deletes uploads older than `before`; returns the blob references they held. */
export async function deleteOldUploads(db: Db, before: Date): Promise<Map<string, number>> {
  const rows = await db.deleteFrom('uploads').where('created_at', '<', before).returning('blob_hash').execute();
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.blob_hash, (counts.get(r.blob_hash) ?? 0) + 1);
  return counts;
}

export async function setFlag(db: Db, userId: number, id: number, flag: 'answered' | 'forwarded'): Promise<void> {
  await db.updateTable('messages').set({ [flag]: true }).where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function insertDispatch(db: Db, v: { messageId: number; userId: number; state: 'scheduled' | 'held'; sendAt: Date }): Promise<void> {
  await db.insertInto('dispatches').values({ message_id: v.messageId, user_id: v.userId, state: v.state, send_at: v.sendAt }).execute();
}

/** Due timed sends, locked for this node only (SKIP LOCKED: other nodes take the rest). */
export async function lockDueDispatches(db: Db, limit: number, now: Date) {
  return db.selectFrom('dispatches').select(['message_id', 'user_id']).where('state', '=', 'scheduled').where('send_at', '<=', now)
    .orderBy('send_at').limit(limit).forUpdate().skipLocked().execute();
}

export async function lockDispatch(db: Db, messageId: number, userId?: number) {
  let q = db.selectFrom('dispatches').select(['message_id', 'user_id', 'state', 'send_at']).where('message_id', '=', messageId);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return q.forUpdate().executeTakeFirst();
}

export async function deleteDispatch(db: Db, messageId: number): Promise<void> {
  await db.deleteFrom('dispatches').where('message_id', '=', messageId).execute();
}

export async function setDispatchState(db: Db, messageId: number, state: 'scheduled' | 'held'): Promise<void> {
  await db.updateTable('dispatches').set({ state }).where('message_id', '=', messageId).execute();
}

export async function setSentState(db: Db, messageId: number, state: string | null, sendAt?: Date | null): Promise<void> {
  await db.updateTable('messages').set({ delivery_state: state, ...(sendAt !== undefined ? { send_at: sendAt } : {}) }).where('id', '=', messageId).execute();
}

export interface NewSendRecipient { sentId: number; address: string; kind: 'local' | 'external'; copyId: number | null; outboxId: number | null }

export async function insertSendRecipients(db: Db, rows: NewSendRecipient[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('send_recipients').values(rows.map((r) => ({
    sent_id: r.sentId, address: r.address, kind: r.kind, copy_id: r.copyId, outbox_id: r.outboxId,
  }))).execute();
}

/**
 * A sent copy's recipients with their queue jobs, and the copy's overall state as of the
 * same statement: the read page shows both, and reading the state apart could show
 * "sending" beside recipients that have all settled (the job closed in between).
 */
export async function deliveriesOf(db: Db, sentId: number) {
  return db.selectFrom('send_recipients as r').innerJoin('messages as m', 'm.id', 'r.sent_id').leftJoin('outbox as o', 'o.id', 'r.outbox_id')
    .select(['r.id', 'r.address', 'r.kind', 'r.copy_id', 'r.recalled', 'r.created_at', 'o.status', 'o.last_error', 'o.attempts', 'o.updated_at',
      'm.delivery_state'])
    .where('r.sent_id', '=', sentId).orderBy('r.id').execute();
}

export async function markRecalled(db: Db, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.updateTable('send_recipients').set({ recalled: true }).where('id', 'in', ids).execute();
}

/** Local copies among `ids` with their read state; locked, so a reader opening one waits for the recall or wins before it. */
export async function lockCopies(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('messages').select(['id', 'user_id', 'seen', 'blob_hash', 'content_id', 'folder_mid']).where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Addresses for autocomplete: colleagues in the directory, then people this mailbox has mailed or heard from. */
export async function suggest(db: Db, userId: number, companyId: number, q: string, limit: number) {
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const colleagues = await db.selectFrom('users').select(['name', 'email as address']).where('company_id', '=', companyId).where('status', '=', 'active')
    .where((eb) => eb.or([eb('email', 'ilike', like), eb('name', 'ilike', like)])).orderBy('email').limit(limit).execute();
  // The newest 2,000 mails are enough to know someone's correspondents and keep this fast.
  const recent = await sql<{ name: string; address: string }>`
    SELECT DISTINCT ON (address) name, address FROM (
      SELECT c.from_name AS name, c.from_address AS address, m.received_at FROM (
        SELECT content_id, received_at, folder_mid FROM messages WHERE user_id = ${userId} ORDER BY received_at DESC LIMIT 2000) m
      JOIN mail_contents c ON c.id = m.content_id WHERE m.folder_mid <> 1
      UNION ALL
      SELECT coalesce(t->>'name', ''), t->>'address', m.received_at FROM (
        SELECT content_id, received_at FROM messages WHERE user_id = ${userId} AND folder_mid = 1 ORDER BY received_at DESC LIMIT 2000) m
      JOIN mail_contents c ON c.id = m.content_id, jsonb_array_elements(c.to_list || c.cc_list) t
    ) x WHERE address <> '' AND (address ILIKE ${like} OR name ILIKE ${like})
    ORDER BY address, received_at DESC LIMIT ${limit}`.execute(db);
  return { colleagues, recent: recent.rows };
}

/** A sent copy with what dispatching it needs. */
export async function sentCopy(db: Db, id: number) {
  return db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
    .select(['m.id', 'm.user_id', 'm.content_id', 'm.blob_hash', 'm.size', 'm.urgent', 'm.has_attach', 'm.bcc', 'm.delivery_state', 'm.folder_mid', 'm.send_at',
      'c.to_list', 'c.cc_list', 'c.subject'])
    .where('m.id', '=', id).executeTakeFirst();
}
export type SentCopy = NonNullable<Awaited<ReturnType<typeof sentCopy>>>;

/** Gives a draft new content in place, so its id (and the editor's links to its parts) stay valid. */
export async function replaceContent(db: Db, id: number, v: { contentId: number; blobHash: string; size: number; oldSize: number; userId: number; urgent: boolean; hasAttach: boolean; bcc: string }): Promise<void> {
  await db.updateTable('messages').set({
    content_id: v.contentId, blob_hash: v.blobHash, size: v.size, received_at: new Date(), urgent: v.urgent, has_attach: v.hasAttach, bcc: v.bcc,
  }).where('id', '=', id).execute();
  // The quota trigger follows inserts and deletes; a size change in place is counted here.
  await db.updateTable('users').set({ used_bytes: sql`used_bytes + ${v.size - v.oldSize}` }).where('id', '=', v.userId).execute();
}

export async function moveToDrafts(db: Db, id: number): Promise<void> {
  await db.updateTable('messages').set({ folder_mid: 2, delivery_state: null, send_at: null, seen: true }).where('id', '=', id).execute();
}
