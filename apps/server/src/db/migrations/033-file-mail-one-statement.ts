import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: a delivery batch is filed by one statement (features/message/filing.repository.ts),
// committed on its own, not by a transaction of four. A mail bound for a mailbox that is no
// longer active (an RCPT answer kept per connection) must fail that whole statement, as the
// rolled-back transaction did before; this function is how the statement says so. Its SQLSTATE
// is ours, so the caller tells it from any other failure.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE FUNCTION mw_inactive_mailbox(uid bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'mailbox % is not active', uid USING ERRCODE = 'MW450';
END $$;
`);
}
