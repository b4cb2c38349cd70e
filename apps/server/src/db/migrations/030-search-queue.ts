import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: the full-text index off the delivery's critical path. Adding ~800 lexemes per
// mail to a GIN index inside the delivery's transaction was half the database time of a
// delivery (12.9 → 5.4 ms per mail on PGlite, 10.5 → 4.1 on PostgreSQL, measured by
// inserting parsed 4–40 KB mails with and without the index). A delivery now writes its
// tokens to `search_pending` (a plain row, no GIN), and the search indexer
// (features/search/search-indexer.ts) moves them into `mail_search` in batches when
// deliveries pause, as Dovecot's indexer does. Search reads both tables, so a mail is
// findable the moment its delivery commits, indexed or not.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE mail_search (
  content_id bigint PRIMARY KEY REFERENCES mail_contents(id) ON DELETE CASCADE,
  search tsvector NOT NULL
);
CREATE TABLE search_pending (
  content_id bigint PRIMARY KEY REFERENCES mail_contents(id) ON DELETE CASCADE,
  search tsvector NOT NULL
);
INSERT INTO mail_search (content_id, search) SELECT id, search FROM mail_contents WHERE search IS NOT NULL;
DROP INDEX mail_contents_search;
ALTER TABLE mail_contents DROP COLUMN search;
CREATE INDEX mail_search_gin ON mail_search USING gin (search);
`);
}
