import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withCalendarTables, type CalEventsTable } from './tables.js';
import type { Insertable, Selectable, Updateable } from 'kysely';

export type EventRow = Selectable<CalEventsTable>;
export type NewEvent = Insertable<CalEventsTable>;
export type EventPatch = Updateable<CalEventsTable>;

const cal = (db: Db) => withCalendarTables(db);

export async function findEvent(db: Db, userId: number, id: number): Promise<EventRow | undefined> {
  return cal(db).selectFrom('cal_events').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function insertEvent(db: Db, v: NewEvent): Promise<EventRow> {
  return cal(db).insertInto('cal_events').values(v).returningAll().executeTakeFirstOrThrow();
}

/** A change of times or rule also drops the reminders not yet sent, and lets the scheduler plan them again. */
export async function updateEvent(db: Db, userId: number, id: number, v: EventPatch): Promise<void> {
  await cal(db).updateTable('cal_events').set({ ...v, reminders_until: null, updated_at: new Date() }).where('user_id', '=', userId).where('id', '=', id).execute();
  await cal(db).deleteFrom('cal_reminders').where('event_id', '=', id).where('state', '=', 'pending').execute();
}

export async function deleteEvent(db: Db, userId: number, id: number): Promise<void> {
  await cal(db).deleteFrom('cal_events').where('user_id', '=', userId).where('id', '=', id).execute();
}

/** Overrides of a series from a wall time on (a "this and following" split moves them to the new series). */
export async function moveOverrides(db: Db, userId: number, seriesId: number, fromWall: string, toSeries: number): Promise<void> {
  await cal(db).updateTable('cal_events').set({ series_id: toSeries }).where('user_id', '=', userId).where('series_id', '=', seriesId)
    .where('recurrence_id', '>=', fromWall).execute();
}

export async function deleteOverridesFrom(db: Db, userId: number, seriesId: number, fromWall: string): Promise<void> {
  await cal(db).deleteFrom('cal_events').where('user_id', '=', userId).where('series_id', '=', seriesId).where('recurrence_id', '>=', fromWall).execute();
}

/** Migration 023's short_single: a one-off event lasting at most this long. */
export const SHORT_SPAN_MS = 7 * 86_400_000;

/**
 * Ids and versions of the events and series that may have an occurrence in [from, to):
 * short one-offs by a bounded scan of their start (they start at most 7 days before the
 * window), the rest (series, long events) by start before the end and not over before the
 * start. Two ints a row: the fields come from the caller's cache or eventsByIds.
 */
export async function versionsInRange(db: Db, userId: number, from: Date, to: Date): Promise<{ id: number; version: number }[]> {
  const c = cal(db);
  return c.selectFrom('cal_events').select(['id', 'version']).where('user_id', '=', userId).where('short_single', '=', true)
    .where('first_at', '>=', new Date(from.getTime() - SHORT_SPAN_MS)).where('first_at', '<', to).where('last_at', '>=', from)
    .unionAll(c.selectFrom('cal_events').select(['id', 'version']).where('user_id', '=', userId).where('short_single', '=', false).where('first_at', '<', to)
      .where((eb) => eb.or([eb('last_at', 'is', null), eb('last_at', '>=', from)])))
    .execute();
}

export const VIEW_COLUMNS = ['id', 'version', 'title', 'category', 'all_day', 'start_local', 'end_local', 'tz', 'rrule', 'exdates', 'lunar', 'reminder_min'] as const;
export type ViewRow = Pick<EventRow, (typeof VIEW_COLUMNS)[number]>;

/** What a view shows of some events of one mailbox. */
export async function eventsByIds(db: Db, userId: number, ids: number[]): Promise<ViewRow[]> {
  if (ids.length === 0) return [];
  return cal(db).selectFrom('cal_events').select(VIEW_COLUMNS).where('user_id', '=', userId).where('id', 'in', ids).execute();
}

export async function allEvents(db: Db, userId: number): Promise<EventRow[]> {
  return cal(db).selectFrom('cal_events').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export const countEvents = async (db: Db, userId: number): Promise<number> =>
  Number((await cal(db).selectFrom('cal_events').select(sql<number>`count(*)::int`.as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n);

export async function setFeed(db: Db, userId: number, tokenHash: string): Promise<void> {
  await cal(db).insertInto('cal_feeds').values({ user_id: userId, token_hash: tokenHash })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ token_hash: tokenHash, created_at: new Date() })).execute();
}

export async function dropFeed(db: Db, userId: number): Promise<void> {
  await cal(db).deleteFrom('cal_feeds').where('user_id', '=', userId).execute();
}

export async function feedOwner(db: Db, tokenHash: string): Promise<number | null> {
  const r = await cal(db).selectFrom('cal_feeds').select('user_id').where('token_hash', '=', tokenHash).executeTakeFirst();
  return r ? Number(r.user_id) : null;
}
