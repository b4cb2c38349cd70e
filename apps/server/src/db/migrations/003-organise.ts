import { sql, type Kysely } from 'kysely';
import { contentTokens } from '../../features/search/content-tokens.js';
import { runScript } from '../sql-script.js';

// Organise and find (issue 5): the full-text index, indexes for searching and
// filtering a whole mailbox, auto-archive, and change events for live clients.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
-- Our own tokens (shared/search.ts: words, addresses, CJK bigrams) as lexemes, no positions.
ALTER TABLE mail_contents ADD COLUMN search tsvector;
CREATE INDEX mail_contents_search ON mail_contents USING gin (search);

-- Newest-first over all folders (search), and unread-only lists (quick filter).
CREATE INDEX messages_user_time ON messages(user_id, received_at DESC, id DESC);
CREATE INDEX messages_unread ON messages(user_id, folder_mid, received_at DESC, id DESC) WHERE NOT seen;

ALTER TABLE users ADD COLUMN auto_archive_days integer CHECK (auto_archive_days IS NULL OR auto_archive_days BETWEEN 1 AND 3650);

-- Every change to a mailbox's mail is announced on one channel, whatever code path
-- (SMTP on any node, the API, a worker) made it. Live streams on every node LISTEN.
-- A payload names at most 50 ids; clients refetch what they show anyway.
CREATE FUNCTION messages_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT user_id, (array_agg(id ORDER BY id))[1:50] AS ids, array_agg(DISTINCT folder_mid) AS f FROM new_rows GROUP BY user_id ORDER BY user_id LOOP
      PERFORM pg_notify('mailwing_events', json_build_object('u', r.user_id, 'k', 'new', 'ids', r.ids, 'f', r.f)::text);
    END LOOP;
  ELSIF TG_OP = 'UPDATE' THEN
    FOR r IN SELECT user_id, (array_agg(id ORDER BY id))[1:50] AS ids, array_agg(DISTINCT folder_mid) AS f FROM new_rows GROUP BY user_id ORDER BY user_id LOOP
      PERFORM pg_notify('mailwing_events', json_build_object('u', r.user_id, 'k', 'changed', 'ids', r.ids, 'f', r.f)::text);
    END LOOP;
  ELSE
    FOR r IN SELECT user_id, (array_agg(id ORDER BY id))[1:50] AS ids, array_agg(DISTINCT folder_mid) AS f FROM old_rows GROUP BY user_id ORDER BY user_id LOOP
      PERFORM pg_notify('mailwing_events', json_build_object('u', r.user_id, 'k', 'removed', 'ids', r.ids, 'f', r.f)::text);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_events_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_events();
CREATE TRIGGER messages_events_update AFTER UPDATE ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_events();
CREATE TRIGGER messages_events_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_events();
`);
  // Contents stored before the index existed get their tokens now, in batches.
  for (;;) {
    const rows = await sql<{ id: number; subject: string; from_name: string; from_address: string; to_list: unknown; cc_list: unknown; text_body: string; attachments: unknown }>`
      SELECT id, subject, from_name, from_address, to_list, cc_list, text_body, attachments FROM mail_contents WHERE search IS NULL ORDER BY id LIMIT 500`.execute(db);
    if (rows.rows.length === 0) break;
    for (const r of rows.rows) {
      const tokens = contentTokens({
        subject: r.subject, from: { name: r.from_name, address: r.from_address }, to: r.to_list as never, cc: r.cc_list as never,
        text: r.text_body, attachments: r.attachments as never,
      });
      await sql`UPDATE mail_contents SET search = array_to_tsvector(${tokens}::text[]) WHERE id = ${r.id}`.execute(db);
    }
  }
}
