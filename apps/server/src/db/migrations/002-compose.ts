import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Compose and send (issue 4): uploads, the sender's view of each recipient, timed
// and held sends, and what the delivery queue needs to report bounces.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
-- The audit seam: when on, outgoing mail waits in audit_waiting until released.
ALTER TABLE companies ADD COLUMN audit_outgoing boolean NOT NULL DEFAULT false;

-- The subject a conversation is grouped by (shared/validators threadSubject); the
-- backfill mirrors that function for rows stored before this column existed.
ALTER TABLE mail_contents ADD COLUMN thread_subject text NOT NULL DEFAULT '';
UPDATE mail_contents SET thread_subject = lower(btrim(regexp_replace(subject,
  '^\\s*((re|fw|fwd|aw|sv|答复|回复|转发)\\s*(\\[\\d+\\])?\\s*[:：]\\s*)+', '', 'i')));
CREATE INDEX mail_contents_thread ON mail_contents(thread_subject) WHERE thread_subject <> '';

-- A timed send's time while it waits (the sent copy sits in Sent as 'sending').
ALTER TABLE messages ADD COLUMN send_at timestamptz;

-- Files uploaded for a mail being written. Each holds one blob reference; unused
-- uploads are swept after a day.
CREATE TABLE uploads (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  blob_hash text NOT NULL REFERENCES blobs(hash),
  name text NOT NULL,
  size bigint NOT NULL,
  content_type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploads_user ON uploads(user_id, id);
CREATE INDEX uploads_age ON uploads(created_at);

-- Sends that wait: until their time ('scheduled') or for the audit ('held').
-- Deleting the sent copy cancels them.
CREATE TABLE dispatches (
  message_id bigint PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  state text NOT NULL CHECK (state IN ('scheduled', 'held')),
  send_at timestamptz NOT NULL
);
CREATE INDEX dispatches_due ON dispatches(send_at) WHERE state = 'scheduled';

-- Who a sent mail went to and what it became: a local copy (recall finds it here)
-- or an outbox job (its status is the recipient's status).
CREATE TABLE send_recipients (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sent_id bigint NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  address text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('local', 'external')),
  copy_id bigint,
  outbox_id bigint REFERENCES outbox(id) ON DELETE SET NULL,
  recalled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX send_recipients_sent ON send_recipients(sent_id);

-- The sender, to whom a bounce report goes.
ALTER TABLE outbox ADD COLUMN sender_id bigint REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE outbox ADD COLUMN remote_host text NOT NULL DEFAULT '';
CREATE INDEX outbox_message ON outbox(message_id);
`);
}
