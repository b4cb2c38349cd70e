import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: the first list page is asked far more often than anything else, and planning its
// statement cost twice its work. It now runs as a prepared statement on a generic plan
// (message.repository.ts folderPage). A generic plan cannot see LIMIT/OFFSET or which folder:
// it took LIMIT $n for 10 % of a mailbox and sorted the whole of it (25 ms at 100,000 mails),
// or scanned a mailbox's every mail to list an empty folder. So the one part whose best plan
// depends on the values, which ids make the page, is planned with its values each time, by
// EXECUTE … USING; the rest (a primary-key lookup per id) is the same plan for everyone.
// ROWS 20 tells the outer plan what a page is.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE FUNCTION mw_folder_page_ids(uid bigint, mid integer, lim integer, skip integer) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE ROWS 20 AS $$
BEGIN
  RETURN QUERY EXECUTE 'SELECT id FROM messages WHERE user_id = $1 AND folder_mid = $2 ORDER BY received_at DESC, id DESC LIMIT $3 OFFSET $4'
    USING uid, mid, lim, skip;
END $$;
`);
}
