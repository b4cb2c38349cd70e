import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: migration 034's functions planned their page query afresh on every call (EXECUTE),
// because a generic plan, blind to LIMIT, OFFSET and the folder, could sort a whole mailbox.
// That planning was a quarter of the database's time for a list page (pgbench, one client, the
// page statement at 100,000 mails: 240–278 µs a call with it, 195–218 µs without). Now the
// query is planned once per session, generic, with sorting priced out: the only plan left that
// gives the order without a sort is the (user, folder, time) index read in order and stopped
// after the page, whatever page or folder is asked, so the generic plan is the right one.
// Sequential scans are priced out as for every prepared statement (db/prepared.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE OR REPLACE FUNCTION mw_folder_page_ids(uid bigint, mid integer, lim integer, skip integer) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE ROWS 20
SET plan_cache_mode = force_generic_plan SET enable_sort = off SET enable_seqscan = off AS $$
BEGIN
  RETURN QUERY SELECT id FROM messages WHERE user_id = uid AND folder_mid = mid ORDER BY received_at DESC, id DESC LIMIT lim OFFSET skip;
END $$;
CREATE OR REPLACE FUNCTION mw_folder_conversations(uid bigint, mid integer, lim integer, skip integer)
RETURNS TABLE (user_id bigint, conv_id bigint, n integer, unread integer, last_at timestamptz, last_id bigint)
LANGUAGE plpgsql STABLE ROWS 20
SET plan_cache_mode = force_generic_plan SET enable_sort = off SET enable_seqscan = off AS $$
BEGIN
  RETURN QUERY SELECT cf.user_id, cf.conv_id, cf.n, cf.unread, cf.last_at, cf.last_id FROM conversation_folders cf
    WHERE cf.user_id = uid AND cf.folder_mid = mid ORDER BY cf.last_at DESC, cf.last_id DESC LIMIT lim OFFSET skip;
END $$;
`);
}
