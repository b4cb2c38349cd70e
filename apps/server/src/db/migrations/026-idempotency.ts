import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Idempotency keys (issue 15, scope 3): an offline client's outbox and action queue replay
// their requests with an `Idempotency-Key` header, so a retry after a lost answer returns the
// first answer instead of sending the mail twice. One row per (user, key); `pending` while the
// first request runs, `done` with the stored envelope after. Rows expire (expires_at) and the
// runtime sweeps them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE idempotency_keys (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key text NOT NULL,
  route text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
  response text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
`);
}
