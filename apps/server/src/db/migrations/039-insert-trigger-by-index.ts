import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: the trigger that counts delivered mail (migration 032) keeps its statements'
// plans for the session's life, made the first time it runs. Made while `users` was small (a
// new install, the demo), the quota update was a hash join over a read of every user, once
// per delivery batch, for as long as the process ran: on PGlite, which runs no autovacuum,
// nothing ever replans it. Its statements find their rows by key, so the function runs with
// sequential scans priced out, as the prepared statements do (db/prepared.ts): the update
// goes through users' primary key whatever the table's size was when it was planned.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER FUNCTION messages_after_insert() SET enable_seqscan = off;`);
}
