import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Sessions opened for a bound mailbox (issue 7): each points at the session of the
// login it was derived from, so ending that login (logout, a password change that
// ends sessions) ends every mailbox session opened from it, and unbinding a mailbox
// can find and end the sessions it gave out.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE sessions ADD COLUMN link_root_id bigint REFERENCES sessions(id) ON DELETE CASCADE;
CREATE INDEX sessions_link_root ON sessions(link_root_id) WHERE link_root_id IS NOT NULL;
`);
}
