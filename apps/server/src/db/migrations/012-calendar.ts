import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Calendar (issue 18). Times a user typed are kept as wall times in the event's zone
// (start_local/end_local, "YYYY-MM-DDTHH:MM:SS") so a series keeps 09:00 across DST;
// first_at/last_at are the instants the series spans, for range queries (last_at NULL: no end).
// An override of one occurrence is a row of its own with series_id and recurrence_id.
// A private subscription feed is a random token, kept only as its sha256 (like sessions).
// Reminder jobs are keyed UNIQUE (event, occurrence, offset): each is sent once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE cal_events (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  uid text NOT NULL,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  category text NOT NULL DEFAULT 'other',
  all_day boolean NOT NULL DEFAULT false,
  start_local text NOT NULL,
  end_local text NOT NULL,
  tz text NOT NULL,
  rrule text,
  exdates text[] NOT NULL DEFAULT '{}',
  lunar boolean NOT NULL DEFAULT false,
  reminder_min integer NOT NULL DEFAULT -1,
  series_id bigint REFERENCES cal_events(id) ON DELETE CASCADE,
  recurrence_id text,
  first_at timestamptz NOT NULL,
  last_at timestamptz,
  reminders_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cal_events_user_range ON cal_events(user_id, first_at);
CREATE INDEX cal_events_open ON cal_events(user_id) WHERE last_at IS NULL;
CREATE INDEX cal_events_reminders ON cal_events(reminders_until) WHERE reminder_min >= 0;
CREATE TABLE cal_reminders (
  id bigserial PRIMARY KEY,
  event_id bigint NOT NULL REFERENCES cal_events(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  occurrence_at timestamptz NOT NULL,
  offset_min integer NOT NULL,
  due_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  sent_at timestamptz,
  UNIQUE (event_id, occurrence_at, offset_min)
);
CREATE INDEX cal_reminders_due ON cal_reminders(due_at) WHERE state = 'pending';
CREATE TABLE cal_feeds (
  user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
`);
}
