import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import './mail-rule.tables.js';

export interface AutoReplyRow {
  user_id: number; enabled: boolean; start_date: string | null; end_date: string | null; time_zone: string;
  subject: string; body: string; interval_days: number;
}

// Dates as text: a DATE column would come back as a Date at the server's midnight, and the
// setting's dates belong to the user's own time zone.
const select = (db: Db) => db.selectFrom('autoreply_settings').select([
  'user_id', 'enabled', sql<string | null>`start_date::text`.as('start_date'), sql<string | null>`end_date::text`.as('end_date'),
  'time_zone', 'subject', 'body', 'interval_days',
]);

export async function getAutoReply(db: Db, userId: number): Promise<AutoReplyRow | undefined> {
  return select(db).where('user_id', '=', userId).executeTakeFirst();
}

/** The switched-on settings of several mailboxes, for one delivery. */
export async function activeAutoReplies(db: Db, userIds: number[]): Promise<AutoReplyRow[]> {
  if (userIds.length === 0) return [];
  return select(db).where('user_id', 'in', userIds).where('enabled', '=', true).execute();
}

export async function saveAutoReply(db: Db, v: AutoReplyRow, now: Date): Promise<void> {
  const row = { ...v, updated_at: now };
  await db.insertInto('autoreply_settings').values(row).onConflict((oc) => oc.column('user_id').doUpdateSet({
    enabled: v.enabled, start_date: v.start_date, end_date: v.end_date, time_zone: v.time_zone, subject: v.subject, body: v.body,
    interval_days: v.interval_days, updated_at: now,
  })).execute();
}

/**
 * Takes the right to answer `sender` now: true for the first reply, or when the last one
 * is at least `days` old. One conditional upsert, so two deliveries at once cannot both win.
 */
export async function claimReply(db: Db, userId: number, sender: string, now: Date, days: number): Promise<boolean> {
  const r = await sql`INSERT INTO autoreply_log (user_id, sender, last_at) VALUES (${userId}, ${sender}, ${now})
    ON CONFLICT (user_id, sender) DO UPDATE SET last_at = EXCLUDED.last_at
    WHERE autoreply_log.last_at <= ${now}::timestamptz - ${days} * interval '1 day'
    RETURNING 1`.execute(db);
  return r.rows.length > 0;
}

/** The mailbox's own addresses (its login address and aliases): who "the user" is in To/Cc. */
export async function ownAddresses(db: Db, userIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(userIds.map((u) => [u, []]));
  if (userIds.length === 0) return out;
  const users = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).execute();
  const aliases = await db.selectFrom('aliases').select(['user_id', 'address']).where('user_id', 'in', userIds).execute();
  for (const u of users) out.get(u.id)?.push(u.email.toLowerCase());
  for (const a of aliases) out.get(a.user_id)?.push(a.address.toLowerCase());
  return out;
}
