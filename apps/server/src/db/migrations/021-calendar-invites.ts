import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Calendar invitations by mail (issue 18: iTIP, RFC 5546, carried by iMIP, RFC 6047).
// An event row gets the organiser's address when it is a copy someone invited us to
// (NULL: our own event), its SEQUENCE, and our answer (PARTSTAT) on such a copy.
// cal_attendees are the people an organiser invited, with the answer each sent back.
// cal_itip_jobs: a mail with a text/calendar part that landed in a mailbox, to be read
// by a worker (REPLY updates an attendee, REQUEST/CANCEL update an accepted copy);
// inserted in the delivery's own commit, claimed FOR UPDATE SKIP LOCKED, so none is lost.
// disk_upload_locks: which process holds a tus upload (cluster mode); a lease, so a
// process that died does not keep the upload locked for ever.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE cal_events ADD COLUMN organizer text;
ALTER TABLE cal_events ADD COLUMN sequence integer NOT NULL DEFAULT 0;
ALTER TABLE cal_events ADD COLUMN partstat text;
CREATE INDEX cal_events_uid ON cal_events(user_id, uid);
CREATE TABLE cal_attendees (
  event_id bigint NOT NULL REFERENCES cal_events(id) ON DELETE CASCADE,
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  partstat text NOT NULL DEFAULT 'NEEDS-ACTION',
  replied_at timestamptz,
  PRIMARY KEY (event_id, email)
);
CREATE TABLE cal_itip_jobs (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  message_id bigint NOT NULL UNIQUE,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE disk_upload_locks (
  upload_id text PRIMARY KEY,
  holder text NOT NULL,
  lease_until timestamptz NOT NULL
);
`);
}
