import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: the database's CPU per delivered mail. Inserting mail fired three statement
// triggers (counters 001, change events 003, conversations 025), each a plpgsql call of its
// own over the same new rows, and two of them updated the same folders rows (total/unread,
// then convs): two new versions of a row every concurrent batch for that mailbox waits on.
// One trigger now does all three: the new rows are grouped once, each (mailbox, folder) row
// is updated once with all its counters, and the lock order stays conversation_folders,
// folders, users as before. UPDATE and DELETE keep their triggers; only INSERT changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE FUNCTION messages_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  -- d: the new rows per (mailbox, conversation, folder); up: their conversation rows,
  -- made or added to (xmax = 0 tells a made one); a folder counts the conversations it holds.
  WITH d AS MATERIALIZED (
    SELECT user_id, conv_id, folder_mid, count(*)::int AS n, count(*) FILTER (WHERE NOT seen)::int AS u,
      (array_agg(received_at ORDER BY received_at DESC, id DESC))[1] AS at, (array_agg(id ORDER BY received_at DESC, id DESC))[1] AS id
    FROM new_rows GROUP BY 1, 2, 3
  ), up AS (
    INSERT INTO conversation_folders AS cf (user_id, conv_id, folder_mid, n, unread, last_at, last_id)
    SELECT user_id, conv_id, folder_mid, n, u, at, id FROM d ORDER BY 1, 2, 3
    ON CONFLICT (user_id, conv_id, folder_mid) DO UPDATE SET n = cf.n + excluded.n, unread = cf.unread + excluded.unread,
      last_at = CASE WHEN (excluded.last_at, excluded.last_id) > (cf.last_at, cf.last_id) THEN excluded.last_at ELSE cf.last_at END,
      last_id = CASE WHEN (excluded.last_at, excluded.last_id) > (cf.last_at, cf.last_id) THEN excluded.last_id ELSE cf.last_id END
    RETURNING cf.user_id, cf.conv_id, cf.folder_mid, (cf.xmax = 0) AS made
  )
  UPDATE folders f SET total = f.total + c.n, unread = f.unread + c.u, convs = f.convs + c.k
    FROM (
      SELECT d.user_id, d.folder_mid, sum(d.n)::int AS n, sum(d.u)::int AS u, count(*) FILTER (WHERE up.made)::int AS k
      FROM d JOIN up ON up.user_id = d.user_id AND up.conv_id = d.conv_id AND up.folder_mid = d.folder_mid
      GROUP BY 1, 2 ORDER BY 1, 2
    ) c
    WHERE f.user_id = c.user_id AND f.mid = c.folder_mid;
  UPDATE users u SET used_bytes = u.used_bytes + d.b
    FROM (SELECT user_id, sum(size)::bigint AS b FROM new_rows GROUP BY 1 ORDER BY 1) d WHERE u.id = d.user_id;
  -- Live clients on every node (migration 003): one event per mailbox, at most 50 ids.
  FOR r IN SELECT user_id, (array_agg(id ORDER BY id))[1:50] AS ids, array_agg(DISTINCT folder_mid) AS f FROM new_rows GROUP BY user_id ORDER BY user_id LOOP
    PERFORM pg_notify('mailwing_events', json_build_object('u', r.user_id, 'k', 'new', 'ids', r.ids, 'f', r.f)::text);
  END LOOP;
  RETURN NULL;
END $$;
DROP TRIGGER messages_conversations_insert ON messages;
DROP TRIGGER messages_counters_insert ON messages;
DROP TRIGGER messages_events_insert ON messages;
DROP FUNCTION conversations_ins();
DROP FUNCTION messages_counters_ins();
CREATE TRIGGER messages_after_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_after_insert();
`);
}
