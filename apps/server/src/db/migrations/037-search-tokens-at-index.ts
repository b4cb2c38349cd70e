import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: a delivery no longer writes its mail's lexemes. It queues the content's id in
// `search_pending`, and the search indexer makes the tokens from the stored content (a parse
// worker) and writes them once, into `mail_search`. Writing ~900 lexemes (12 KB, out of line)
// per mail into the queue and then again into the index was a quarter of the embedded
// database's work per delivered mail: the peer benchmark's mail without it went 284 → 347 and
// 303 → 332 msg/s on PGlite, 375 → 403 on PostgreSQL (bench:smtp-ingest, SHAPE=blast). Mail
// that waits is indexed before its owner's search runs (search.service.ts), as Dovecot's FTS
// indexes a mailbox when it is searched. Rows that wait now are made again from their content.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE search_pending DROP COLUMN search;
`);
}
