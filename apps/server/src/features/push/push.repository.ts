import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

export interface VapidKeys { publicKey: string; privateKey: string }

export async function upsertSubscription(db: Db, v: { userId: number; sessionId: number; endpoint: string; p256dh: string; auth: string }): Promise<void> {
  await db.insertInto('push_subscriptions').values({ user_id: v.userId, session_id: v.sessionId, endpoint: v.endpoint, p256dh: v.p256dh, auth: v.auth })
    .onConflict((oc) => oc.columns(['user_id', 'endpoint']).doUpdateSet({ session_id: v.sessionId, p256dh: v.p256dh, auth: v.auth }))
    .execute();
}

export async function deleteSubscription(db: Db, userId: number, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).execute();
}

/** A push service said the subscription is gone (RFC 8030 §7.3): every row with that endpoint goes. */
export async function deleteEndpoint(db: Db, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).execute();
}

/**
 * Which of these mailboxes have any device to notify: a subscription of their own, or
 * one of a mailbox they are bound into. A superset (a link's liveness is checked later):
 * it only lets the common case, nobody subscribed, cost one query per delivery.
 */
export async function withDevices(db: Db, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('push_subscriptions').select('push_subscriptions.user_id as user_id').where('push_subscriptions.user_id', 'in', userIds)
    .union(db.selectFrom('mailbox_links').innerJoin('push_subscriptions', 'push_subscriptions.user_id', 'mailbox_links.user_id')
      .select('mailbox_links.linked_user_id as user_id').where('mailbox_links.linked_user_id', 'in', userIds))
    .execute();
  return new Set(rows.map((r) => Number(r.user_id)));
}

export async function subscriptionsOf(db: Db, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db.selectFrom('push_subscriptions').select(['user_id', 'endpoint', 'p256dh', 'auth']).where('user_id', 'in', userIds).execute();
}

/** What a notification shows of each new mail, with the mailbox it is in. */
export async function mailHeads(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('messages').innerJoin('mail_contents', 'mail_contents.id', 'messages.content_id').innerJoin('users', 'users.id', 'messages.user_id')
    .select([
      'messages.id', 'messages.user_id', 'messages.folder_mid', 'messages.seen', 'messages.urgent', 'users.email',
      'mail_contents.subject', 'mail_contents.from_name', 'mail_contents.from_address',
    ])
    .where('messages.id', 'in', ids).where(sql<boolean>`users.status = 'active'`).execute();
}
