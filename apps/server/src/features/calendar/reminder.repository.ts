import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withCalendarTables } from './tables.js';

const cal = (db: Db) => withCalendarTables(db);

/** Series whose reminders are planned less than `until` ahead; locked so two nodes never plan one series at once. */
export async function seriesToPlan(db: Db, now: Date, until: Date, limit: number) {
  return cal(db).selectFrom('cal_events').selectAll().where('reminder_min', '>=', 0)
    .where((eb) => eb.or([eb('reminders_until', 'is', null), eb('reminders_until', '<', until)]))
    .where((eb) => eb.or([eb('last_at', 'is', null), eb('last_at', '>', now)]))
    .orderBy('id').limit(limit).forUpdate().skipLocked().execute();
}

export async function addJobs(db: Db, jobs: { event_id: number; user_id: number; occurrence_at: Date; offset_min: number; due_at: Date }[]): Promise<void> {
  if (jobs.length === 0) return;
  // UNIQUE (event, occurrence, offset): planning the same window twice adds nothing.
  await cal(db).insertInto('cal_reminders').values(jobs).onConflict((oc) => oc.columns(['event_id', 'occurrence_at', 'offset_min']).doNothing()).execute();
}

export async function plannedUntil(db: Db, eventId: number, until: Date): Promise<void> {
  await cal(db).updateTable('cal_events').set({ reminders_until: until }).where('id', '=', eventId).execute();
}

export interface ClaimedJob { id: number; event_id: number; user_id: number; occurrence_at: Date; offset_min: number; due_at: Date; title: string; tz: string; email: string }

/** Due jobs, each leased to this node until `leaseUntil`; a node that dies leaves its lease to expire. */
export async function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedJob[]> {
  const r = await sql<ClaimedJob>`
    UPDATE cal_reminders j SET lease_until = ${leaseUntil}, attempts = j.attempts + 1
    FROM cal_events e, users u
    WHERE j.id IN (
      SELECT id FROM cal_reminders WHERE state = 'pending' AND due_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now})
      ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      AND e.id = j.event_id AND u.id = j.user_id
    RETURNING j.id, j.event_id, j.user_id, j.occurrence_at, j.offset_min, j.due_at, e.title, e.tz, u.email`.execute(db);
  return r.rows.map((j) => ({ ...j, id: Number(j.id), event_id: Number(j.event_id), user_id: Number(j.user_id), occurrence_at: new Date(j.occurrence_at), due_at: new Date(j.due_at) }));
}

export async function markSent(db: Db, id: number, now: Date): Promise<void> {
  await cal(db).updateTable('cal_reminders').set({ state: 'sent', sent_at: now, lease_until: null }).where('id', '=', id).execute();
}

/** Whether the reminder mail for this job is already in the mailbox (sent before a crash, not yet marked). */
export async function mailExists(db: Db, userId: number, messageId: string): Promise<boolean> {
  const r = await sql<{ x: number }>`SELECT 1 AS x FROM messages m JOIN mail_contents c ON c.id = m.content_id WHERE m.user_id = ${userId} AND c.message_id = ${messageId} LIMIT 1`.execute(db);
  return r.rows.length > 0;
}
