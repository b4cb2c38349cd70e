import type { ColumnType, Generated, GeneratedAlways } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row types of migration 012, joined to the Database type with withTables so db/types.ts needs no edit.

type Id = Generated<number>;
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullStamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type CalEventsTable = {
  id: Id; user_id: number; uid: string; title: string; description: Generated<string>; category: Generated<string>; all_day: Generated<boolean>;
  start_local: string; end_local: string; tz: string; rrule: string | null; exdates: Generated<string[]>; lunar: Generated<boolean>;
  reminder_min: Generated<number>; series_id: number | null; recurrence_id: string | null;
  first_at: Stamp; last_at: NullStamp; reminders_until: NullStamp; created_at: Generated<Date>; updated_at: Generated<Date>;
  /** Migration 021: the organiser of an event we were invited to (NULL: our own), its SEQUENCE, and our PARTSTAT. */
  organizer: Generated<string | null>; sequence: Generated<number>; partstat: Generated<string | null>;
  /** Migration 023: bumped by a trigger on every change that matters to a view; a one-off event of at most 7 days. */
  version: Generated<number>; short_single: GeneratedAlways<boolean>;
};
export type CalRemindersTable = {
  id: Id; event_id: number; user_id: number; occurrence_at: Stamp; offset_min: number; due_at: Stamp;
  state: Generated<string>; lease_until: NullStamp; attempts: Generated<number>; sent_at: NullStamp;
};

export type CalFeedsTable = { user_id: number; token_hash: string; created_at: Generated<Date> };

export type CalAttendeesTable = { event_id: number; email: string; name: Generated<string>; partstat: Generated<string>; replied_at: NullStamp };
export type CalItipJobsTable = { id: Id; user_id: number; message_id: number; lease_until: NullStamp; attempts: Generated<number>; created_at: Generated<Date> };

export type CalItipOutTable = {
  id: Id; user_id: number; method: string; recipients: string[]; summary: ColumnType<Record<string, string>, string, string>; ics: string;
  outside_done: Generated<boolean>; lease_until: NullStamp; attempts: Generated<number>; created_at: Generated<Date>;
};

export type CalendarTables = {
  cal_events: CalEventsTable; cal_reminders: CalRemindersTable; cal_feeds: CalFeedsTable;
  cal_attendees: CalAttendeesTable; cal_itip_jobs: CalItipJobsTable; cal_itip_out: CalItipOutTable;
};
export const withCalendarTables = (db: Db) => db.withTables<CalendarTables>();
export type CalendarDb = ReturnType<typeof withCalendarTables>;
