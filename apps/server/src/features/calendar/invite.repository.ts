import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { EventRow } from './calendar.repository.js';
import { withCalendarTables } from './tables.js';

// Attendees of the events a user organises, and the queue of received iTIP mail.

const cal = (db: Db) => withCalendarTables(db);

export interface AttendeeRow { event_id: number; email: string; name: string; partstat: string }

export async function attendeesOf(db: Db, eventIds: number[]): Promise<AttendeeRow[]> {
  if (eventIds.length === 0) return [];
  const rows = await cal(db).selectFrom('cal_attendees').select(['event_id', 'email', 'name', 'partstat']).where('event_id', 'in', eventIds).orderBy('email').execute();
  return rows.map((r) => ({ ...r, event_id: Number(r.event_id) }));
}

/** Makes the attendee list `emails`: new people start at NEEDS-ACTION, kept ones keep their answer. Returns the ones removed. */
export async function setAttendees(db: Db, eventId: number, emails: string[]): Promise<string[]> {
  const had = (await attendeesOf(db, [eventId])).map((a) => a.email);
  const removed = had.filter((e) => !emails.includes(e));
  if (removed.length > 0) await cal(db).deleteFrom('cal_attendees').where('event_id', '=', eventId).where('email', 'in', removed).execute();
  const added = emails.filter((e) => !had.includes(e));
  if (added.length > 0) await cal(db).insertInto('cal_attendees').values(added.map((email) => ({ event_id: eventId, email }))).execute();
  return removed;
}

/** Every attendee back to NEEDS-ACTION: the organiser changed the time (RFC 5546 §2.1.5). */
export async function resetAnswers(db: Db, eventId: number): Promise<void> {
  await cal(db).updateTable('cal_attendees').set({ partstat: 'NEEDS-ACTION', replied_at: null }).where('event_id', '=', eventId).execute();
}

export async function setAnswer(db: Db, eventId: number, email: string, partstat: string, at: Date): Promise<boolean> {
  const r = await cal(db).updateTable('cal_attendees').set({ partstat, replied_at: at }).where('event_id', '=', eventId).where('email', '=', email).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A user's rows of one UID: the series (or single event) first, then its overrides. */
export async function rowsOfUid(db: Db, userId: number, uid: string): Promise<EventRow[]> {
  return cal(db).selectFrom('cal_events').selectAll().where('user_id', '=', userId).where('uid', '=', uid)
    .orderBy(sql`series_id IS NOT NULL`).orderBy('id').execute();
}

export async function deleteUid(db: Db, userId: number, uid: string): Promise<void> {
  await cal(db).deleteFrom('cal_events').where('user_id', '=', userId).where('uid', '=', uid).execute();
}

export async function bumpSequence(db: Db, userId: number, uid: string): Promise<void> {
  await cal(db).updateTable('cal_events').set({ sequence: sql`sequence + 1` }).where('user_id', '=', userId).where('uid', '=', uid).execute();
}

/** Queues received mail that carries a text/calendar part; a second queueing of one message adds nothing. */
export async function addJobs(db: Db, jobs: { user_id: number; message_id: number }[]): Promise<void> {
  if (jobs.length === 0) return;
  await cal(db).insertInto('cal_itip_jobs').values(jobs).onConflict((oc) => oc.column('message_id').doNothing()).execute();
}

/** Jobs leased to this node until `leaseUntil`; one whose node died is claimed again when its lease runs out. */
export async function claimJobs(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<{ id: number; user_id: number; message_id: number; attempts: number }[]> {
  const r = await sql<{ id: number; user_id: number; message_id: number; attempts: number }>`
    UPDATE cal_itip_jobs j SET lease_until = ${leaseUntil}, attempts = j.attempts + 1
    WHERE j.id IN (SELECT id FROM cal_itip_jobs WHERE lease_until IS NULL OR lease_until < ${now} ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING j.id, j.user_id, j.message_id, j.attempts`.execute(db);
  return r.rows.map((j) => ({ id: Number(j.id), user_id: Number(j.user_id), message_id: Number(j.message_id), attempts: Number(j.attempts) }));
}

export async function deleteJob(db: Db, id: number): Promise<void> {
  await cal(db).deleteFrom('cal_itip_jobs').where('id', '=', id).execute();
}

/** The stored mail of one of the user's messages, with the sender the parser read. */
export async function messageOf(db: Db, userId: number, messageId: number): Promise<{ blob_hash: string; from: string } | undefined> {
  const r = await sql<{ blob_hash: string; from: string }>`
    SELECT m.blob_hash, c.from_address AS "from" FROM messages m JOIN mail_contents c ON c.id = m.content_id
    WHERE m.user_id = ${userId} AND m.id = ${messageId}`.execute(db);
  return r.rows[0];
}

export interface OutJob { id: number; user_id: number; method: string; recipients: string[]; summary: Record<string, string>; ics: string; outside_done: boolean; attempts: number }

/** An iTIP mail to send, in the transaction of the event change it announces. */
export async function addOut(db: Db, job: { user_id: number; method: string; recipients: string[]; summary: Record<string, string>; ics: string }): Promise<void> {
  await cal(db).insertInto('cal_itip_out').values({ ...job, summary: JSON.stringify(job.summary) }).execute();
}

/** Mail to send, leased to this node until `leaseUntil` (a node that died leaves it to run out). */
export async function claimOut(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<OutJob[]> {
  const r = await sql<OutJob>`
    UPDATE cal_itip_out j SET lease_until = ${leaseUntil}, attempts = j.attempts + 1
    WHERE j.id IN (SELECT id FROM cal_itip_out WHERE lease_until IS NULL OR lease_until < ${now} ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING j.id, j.user_id, j.method, j.recipients, j.summary, j.ics, j.outside_done, j.attempts`.execute(db);
  return r.rows.map((j) => ({ ...j, id: Number(j.id), user_id: Number(j.user_id), attempts: Number(j.attempts) }));
}

export async function outsideDone(db: Db, id: number): Promise<void> {
  await cal(db).updateTable('cal_itip_out').set({ outside_done: true }).where('id', '=', id).execute();
}

export async function deleteOut(db: Db, id: number): Promise<void> {
  await cal(db).deleteFrom('cal_itip_out').where('id', '=', id).execute();
}
