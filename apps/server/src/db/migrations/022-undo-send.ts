import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Undo send (issue 14, scope 4): each mailbox's undo window in seconds. A mailbox without
// a row has the default. The held mail itself is a `dispatches` row (migration 002) whose
// sent copy has no send_at: the timed-send machinery holds and releases it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE send_settings (
  user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  undo_seconds smallint NOT NULL DEFAULT 5 CHECK (undo_seconds BETWEEN 0 AND 30),
  updated_at timestamptz NOT NULL DEFAULT now()
);
`);
}
