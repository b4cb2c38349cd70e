import { sql, type Kysely } from 'kysely';
import { peopleKey } from '../../features/conversation/people-key.js';
import { Threader } from '../../features/conversation/threader.js';
import { runScript } from '../sql-script.js';

// Conversations (issue 14, scope 2). Each mailbox's messages carry a conversation id,
// given when the row is written (features/conversation/threading.ts: Message-ID,
// In-Reply-To and References, else the same subject between the same people within a
// few days). `conversation_folders` is one row per (mailbox, conversation, folder) with
// its count, unread count and newest message, kept by statement-level triggers like the
// folder counters, so a folder's conversation list is one index range, as its mail list is.
//
// Existing mail is threaded here, once, rather than lazily: a lazy scheme would leave
// every list and action to cope with unassigned rows forever. The pass is linear, in
// batches, with the same rules as delivery (the Threader), so old and new mail agree.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE mail_contents ADD COLUMN people_key text NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN conv_id bigint;
ALTER TABLE folders ADD COLUMN convs integer NOT NULL DEFAULT 0;
ALTER TABLE user_settings ADD COLUMN conversation_view boolean NOT NULL DEFAULT true;
CREATE SEQUENCE conversation_seq;
`);

  // Who each stored mail is between (people-key.ts).
  for (let after = 0; ;) {
    const rows = (await sql<{ id: number; from_address: string; to_list: unknown; cc_list: unknown }>`
      SELECT id, from_address, to_list, cc_list FROM mail_contents WHERE id > ${after} ORDER BY id LIMIT 2000`.execute(db)).rows;
    if (rows.length === 0) break;
    after = Number(rows.at(-1)!.id);
    const keys = rows.map((r) => peopleKey({ from: { name: '', address: r.from_address }, to: r.to_list as never, cc: r.cc_list as never }));
    await sql`UPDATE mail_contents c SET people_key = v.k FROM unnest(${rows.map((r) => Number(r.id))}::bigint[], ${keys}::text[]) AS v(id, k)
      WHERE c.id = v.id`.execute(db);
  }

  // Each mailbox's mail in the order it came, threaded as delivery would have. A mail
  // that starts a conversation gives it its own row id; new conversations number after them.
  let threader: Threader | null = null;
  let cursor: { user: number; at: Date; id: number } | null = null;
  for (;;) {
    const rows: BackfillRow[] = (await sql<BackfillRow>`
      SELECT m.id, m.user_id, m.received_at, c.message_id, c.in_reply_to, c.references_list, c.thread_subject, c.people_key,
             coalesce(c.sent_at, c.created_at) AS dated
      FROM messages m JOIN mail_contents c ON c.id = m.content_id
      ${cursor ? sql`WHERE (m.user_id, m.received_at, m.id) > (${cursor.user}, ${cursor.at}, ${cursor.id})` : sql``}
      ORDER BY m.user_id, m.received_at, m.id LIMIT 2000`.execute(db)).rows;
    if (rows.length === 0) break;
    const ids: number[] = [];
    const convs: number[] = [];
    for (const r of rows) {
      if (!threader || threader.userId !== Number(r.user_id)) threader = new Threader(Number(r.user_id));
      const conv = threader.assign({
        messageId: r.message_id, inReplyTo: r.in_reply_to, references: r.references_list, subjectKey: r.thread_subject, peopleKey: r.people_key,
        date: new Date(r.dated),
      }) ?? Number(r.id);
      threader.remember({ messageId: r.message_id, subjectKey: r.thread_subject, peopleKey: r.people_key, date: new Date(r.dated) }, conv);
      ids.push(Number(r.id));
      convs.push(conv);
    }
    const last: BackfillRow = rows.at(-1)!;
    cursor = { user: Number(last.user_id), at: new Date(last.received_at), id: Number(last.id) };
    await sql`UPDATE messages m SET conv_id = v.c FROM unnest(${ids}::bigint[], ${convs}::bigint[]) AS v(id, c) WHERE m.id = v.id`.execute(db);
  }
  await sql`SELECT setval('conversation_seq', coalesce((SELECT max(id) FROM messages), 0) + 1, false)`.execute(db);

  await runScript(db, `
ALTER TABLE messages ALTER COLUMN conv_id SET DEFAULT nextval('conversation_seq');
ALTER TABLE messages ALTER COLUMN conv_id SET NOT NULL;
CREATE INDEX messages_conv ON messages(user_id, conv_id, received_at DESC, id DESC);

-- Threading's lookups at delivery: by Message-ID, and by subject and people near a date.
-- The old subject-only index (migration 002) served the read page's same-subject list, now gone.
CREATE INDEX mail_contents_message_id ON mail_contents(message_id) WHERE message_id <> '';
CREATE INDEX mail_contents_subject_people ON mail_contents(thread_subject, people_key, (coalesce(sent_at, created_at))) WHERE thread_subject <> '';
DROP INDEX mail_contents_thread;

CREATE TABLE conversation_folders (
  user_id bigint NOT NULL,
  conv_id bigint NOT NULL,
  folder_mid integer NOT NULL,
  n integer NOT NULL,
  unread integer NOT NULL,
  last_at timestamptz NOT NULL,
  last_id bigint NOT NULL,
  PRIMARY KEY (user_id, conv_id, folder_mid)
);
CREATE INDEX conversation_folders_list ON conversation_folders(user_id, folder_mid, last_at DESC, last_id DESC);

INSERT INTO conversation_folders (user_id, conv_id, folder_mid, n, unread, last_at, last_id)
  SELECT user_id, conv_id, folder_mid, count(*), count(*) FILTER (WHERE NOT seen),
    (array_agg(received_at ORDER BY received_at DESC, id DESC))[1], (array_agg(id ORDER BY received_at DESC, id DESC))[1]
  FROM messages GROUP BY user_id, conv_id, folder_mid;
UPDATE folders f SET convs = c.k FROM (SELECT user_id, folder_mid, count(*)::int AS k FROM conversation_folders GROUP BY 1, 2) c
  WHERE f.user_id = c.user_id AND f.mid = c.folder_mid;

-- New mail adds to its conversation's row in its folder (made if new); (xmax = 0) tells
-- a made row from an updated one, and a folder counts the conversations it holds.
CREATE FUNCTION conversations_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT user_id, conv_id, folder_mid, count(*)::int AS n, count(*) FILTER (WHERE NOT seen)::int AS u,
      (array_agg(received_at ORDER BY received_at DESC, id DESC))[1] AS at, (array_agg(id ORDER BY received_at DESC, id DESC))[1] AS id
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ), up AS (
    INSERT INTO conversation_folders AS cf (user_id, conv_id, folder_mid, n, unread, last_at, last_id)
    SELECT user_id, conv_id, folder_mid, n, u, at, id FROM d
    ON CONFLICT (user_id, conv_id, folder_mid) DO UPDATE SET n = cf.n + excluded.n, unread = cf.unread + excluded.unread,
      last_at = CASE WHEN (excluded.last_at, excluded.last_id) > (cf.last_at, cf.last_id) THEN excluded.last_at ELSE cf.last_at END,
      last_id = CASE WHEN (excluded.last_at, excluded.last_id) > (cf.last_at, cf.last_id) THEN excluded.last_id ELSE cf.last_id END
    RETURNING cf.user_id, cf.folder_mid, (cf.xmax = 0) AS made
  )
  UPDATE folders f SET convs = f.convs + c.k
    FROM (SELECT user_id, folder_mid, count(*)::int AS k FROM up WHERE made GROUP BY 1, 2 ORDER BY 1, 2) c
    WHERE f.user_id = c.user_id AND f.mid = c.folder_mid;
  RETURN NULL;
END $$;

-- A move, a read mark, a new time or a delete recounts the conversations it touched from
-- their messages (messages_conv), which also finds each folder's newest one again.
CREATE FUNCTION conversations_recount() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE us bigint[]; cs bigint[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    SELECT array_agg(k.user_id), array_agg(k.conv_id) INTO us, cs FROM (
      SELECT o.user_id, o.conv_id FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        WHERE o.folder_mid <> nw.folder_mid OR o.seen <> nw.seen OR o.conv_id <> nw.conv_id OR o.received_at <> nw.received_at
      UNION
      SELECT nw.user_id, nw.conv_id FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        WHERE o.folder_mid <> nw.folder_mid OR o.seen <> nw.seen OR o.conv_id <> nw.conv_id OR o.received_at <> nw.received_at
    ) k;
  ELSE
    SELECT array_agg(k.user_id), array_agg(k.conv_id) INTO us, cs FROM (SELECT DISTINCT user_id, conv_id FROM old_rows) k;
  END IF;
  IF us IS NULL THEN RETURN NULL; END IF;
  WITH gone AS (
    DELETE FROM conversation_folders cf USING unnest(us, cs) AS k(user_id, conv_id)
    WHERE cf.user_id = k.user_id AND cf.conv_id = k.conv_id RETURNING cf.user_id, cf.folder_mid
  )
  UPDATE folders f SET convs = f.convs - g.k
    FROM (SELECT user_id, folder_mid, count(*)::int AS k FROM gone GROUP BY 1, 2 ORDER BY 1, 2) g
    WHERE f.user_id = g.user_id AND f.mid = g.folder_mid;
  WITH made AS (
    INSERT INTO conversation_folders (user_id, conv_id, folder_mid, n, unread, last_at, last_id)
    SELECT m.user_id, m.conv_id, m.folder_mid, count(*), count(*) FILTER (WHERE NOT m.seen),
      (array_agg(m.received_at ORDER BY m.received_at DESC, m.id DESC))[1], (array_agg(m.id ORDER BY m.received_at DESC, m.id DESC))[1]
    FROM unnest(us, cs) AS k(user_id, conv_id) JOIN messages m ON m.user_id = k.user_id AND m.conv_id = k.conv_id
    GROUP BY 1, 2, 3
    RETURNING user_id, folder_mid
  )
  UPDATE folders f SET convs = f.convs + g.k
    FROM (SELECT user_id, folder_mid, count(*)::int AS k FROM made GROUP BY 1, 2 ORDER BY 1, 2) g
    WHERE f.user_id = g.user_id AND f.mid = g.folder_mid;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_conversations_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION conversations_ins();
CREATE TRIGGER messages_conversations_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION conversations_recount();
CREATE TRIGGER messages_conversations_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION conversations_recount();
`);
}

interface BackfillRow {
  id: number; user_id: number; received_at: Date; message_id: string; in_reply_to: string; references_list: string;
  thread_subject: string; people_key: string; dated: Date;
}
