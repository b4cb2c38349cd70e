import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: a list page is asked far more often than anything else, and planning its statement
// cost more than its work. The plain list and the conversation list now run as prepared
// statements on generic plans (message.repository.ts folderPage, conversation.repository.ts
// conversationPage). A generic plan cannot see LIMIT/OFFSET or which folder: it took LIMIT $n
// for 10 % of a mailbox and sorted the whole of it (25 ms at 100,000 mails), or scanned a
// mailbox's every mail to list an empty folder. So the one part whose best plan depends on the
// values, which rows make the page, is planned with its values each time, by EXECUTE … USING;
// the rest (lookups per row of the page) is the same plan for everyone. ROWS 20 tells the outer
// plan what a page is. One function per list: a page of mail ids, and a page of a folder's
// conversations (their conversation_folders rows).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE FUNCTION mw_folder_page_ids(uid bigint, mid integer, lim integer, skip integer) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE ROWS 20 AS $$
BEGIN
  RETURN QUERY EXECUTE 'SELECT id FROM messages WHERE user_id = $1 AND folder_mid = $2 ORDER BY received_at DESC, id DESC LIMIT $3 OFFSET $4'
    USING uid, mid, lim, skip;
END $$;
CREATE FUNCTION mw_folder_conversations(uid bigint, mid integer, lim integer, skip integer)
RETURNS TABLE (user_id bigint, conv_id bigint, n integer, unread integer, last_at timestamptz, last_id bigint)
LANGUAGE plpgsql STABLE ROWS 20 AS $$
BEGIN
  RETURN QUERY EXECUTE 'SELECT user_id, conv_id, n, unread, last_at, last_id FROM conversation_folders
    WHERE user_id = $1 AND folder_mid = $2 ORDER BY last_at DESC, last_id DESC LIMIT $3 OFFSET $4'
    USING uid, mid, lim, skip;
END $$;
`);
}
