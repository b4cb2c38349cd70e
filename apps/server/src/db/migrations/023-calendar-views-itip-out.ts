import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// The month view for a mailbox with thousands of events (issue 18: under 50 ms p99).
// - short_single: a one-off event (or an override) lasting at most 7 days. Its occurrence
//   overlaps [from, to) only if it starts in [from - 7 days, to), a bounded range scan on
//   cal_events_short; everything else (series, long events) is the small rest, found through
//   cal_events_long. calendar.repository's SHORT_SPAN_MS is the same 7 days.
// - version: bumped by a trigger on any change but the reminder planner's bookkeeping, so a
//   process may keep an event's fields and expansion in memory and check them against the
//   row's version (one int per event) instead of reading every column on every view.
//   A trigger, so no writer (edit, invitation, import) can forget it.
// cal_itip_out: invitation mail (iTIP REQUEST, CANCEL, REPLY) to send, inserted in the
// transaction that changes the event, so a crash after the commit cannot lose it; a worker
// sends it (outside addresses into the outbound queue, then local delivery, whose commit
// deletes the row: outside_done keeps a retry from queueing the outside copies twice).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE cal_events ADD COLUMN version integer NOT NULL DEFAULT 0;
ALTER TABLE cal_events ADD COLUMN short_single boolean
  GENERATED ALWAYS AS (rrule IS NULL AND last_at IS NOT NULL AND last_at - first_at <= interval '7 days') STORED;
CREATE INDEX cal_events_short ON cal_events(user_id, first_at) WHERE short_single;
CREATE INDEX cal_events_long ON cal_events(user_id, first_at) WHERE NOT short_single;
CREATE FUNCTION cal_events_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Generated columns are not yet computed in NEW here; they follow from the others anyway.
  IF to_jsonb(NEW) - 'reminders_until' - 'version' - 'short_single' IS DISTINCT FROM to_jsonb(OLD) - 'reminders_until' - 'version' - 'short_single' THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER cal_events_version BEFORE UPDATE ON cal_events FOR EACH ROW EXECUTE FUNCTION cal_events_version();
CREATE TABLE cal_itip_out (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  method text NOT NULL,
  recipients text[] NOT NULL,
  summary jsonb NOT NULL,
  ics text NOT NULL,
  outside_done boolean NOT NULL DEFAULT false,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
`);
}
