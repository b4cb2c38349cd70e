import { sql, type ExpressionBuilder } from 'kysely';
import { SystemFolder } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/types.js';

// A link counts only while the bound mailbox is active and its password has not
// changed since the link was made: changing a password is how its owner takes the
// mailbox back from everyone who knew the old one.
const live = (eb: ExpressionBuilder<Database & { linked: Database['users'] }, 'mailbox_links' | 'linked'>) => eb.and([
  eb('linked.status', '=', 'active'),
  eb('mailbox_links.created_at', '>=', eb.ref('linked.password_changed_at')),
]);

/** The session and the login it belongs to: a bound-mailbox session points at the session it was opened from. */
export async function sessionRoot(db: Db, sessionId: number): Promise<{ rootId: number; ownerId: number } | undefined> {
  const row = await db.selectFrom('sessions as s').leftJoin('sessions as root', 'root.id', 's.link_root_id')
    .select(['s.id', 's.user_id', 'root.id as root_id', 'root.user_id as root_user'])
    .where('s.id', '=', sessionId).executeTakeFirst();
  if (!row) return undefined;
  return row.root_id !== null && row.root_user !== null ? { rootId: row.root_id, ownerId: row.root_user } : { rootId: row.id, ownerId: row.user_id };
}

/** The owner's live links, with what the mailbox list shows. */
export async function linkedMailboxes(db: Db, ownerId: number) {
  return db.selectFrom('mailbox_links').innerJoin('users as linked', 'linked.id', 'mailbox_links.linked_user_id')
    .leftJoin('folders', (j) => j.onRef('folders.user_id', '=', 'linked.id').on('folders.mid', '=', Number(SystemFolder.Inbox)))
    .select(['linked.id', 'linked.email', 'linked.name', sql<number>`coalesce(folders.unread, 0)`.as('unread')])
    .where('mailbox_links.user_id', '=', ownerId).where(live)
    .orderBy('mailbox_links.created_at').orderBy('linked.id').execute();
}

export async function mailboxSummary(db: Db, userId: number) {
  return db.selectFrom('users').leftJoin('folders', (j) => j.onRef('folders.user_id', '=', 'users.id').on('folders.mid', '=', Number(SystemFolder.Inbox)))
    .select(['users.id', 'users.email', 'users.name', sql<number>`coalesce(folders.unread, 0)`.as('unread')])
    .where('users.id', '=', userId).executeTakeFirst();
}

export async function findLiveLink(db: Db, ownerId: number, linkedId: number): Promise<boolean> {
  const row = await db.selectFrom('mailbox_links').innerJoin('users as linked', 'linked.id', 'mailbox_links.linked_user_id')
    .select('linked.id').where('mailbox_links.user_id', '=', ownerId).where('mailbox_links.linked_user_id', '=', linkedId).where(live)
    .executeTakeFirst();
  return row !== undefined;
}

/** Binds, or renews a link that went stale (the bound mailbox's password changed and was just proven again). */
export async function upsertLink(db: Db, ownerId: number, linkedId: number): Promise<void> {
  // created_at is insert-only in the table types; here it is the link's proof time, renewed on purpose.
  await sql`INSERT INTO mailbox_links (user_id, linked_user_id) VALUES (${ownerId}, ${linkedId})
    ON CONFLICT (user_id, linked_user_id) DO UPDATE SET created_at = now()`.execute(db);
}

export async function deleteLink(db: Db, ownerId: number, linkedId: number): Promise<boolean> {
  const r = await db.deleteFrom('mailbox_links').where('user_id', '=', ownerId).where('linked_user_id', '=', linkedId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Ends the sessions of `linkedId` that were opened from any login of `ownerId`. */
export async function deleteLinkSessions(db: Db, ownerId: number, linkedId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', linkedId)
    .where('link_root_id', 'in', (eb) => eb.selectFrom('sessions as root').select('root.id').where('root.user_id', '=', ownerId))
    .execute();
}

export async function setLinkRoot(db: Db, tokenHash: string, rootId: number): Promise<void> {
  await db.updateTable('sessions').set({ link_root_id: rootId }).where('token_hash', '=', tokenHash).execute();
}

/** For each mailbox, the owners that have it bound (live links only): their devices hear of its new mail too. */
export async function ownersOf(db: Db, userIds: number[]): Promise<{ owner: number; linked: number }[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom('mailbox_links').innerJoin('users as linked', 'linked.id', 'mailbox_links.linked_user_id')
    .select(['mailbox_links.user_id as owner', 'mailbox_links.linked_user_id as linked'])
    .where('mailbox_links.linked_user_id', 'in', userIds).where(live).execute();
}
