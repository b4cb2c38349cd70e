import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: a mail's search lexemes (migration 030) are stored out of line but no longer run
// through the compressor. A tsvector built from a mail's distinct words does not compress:
// pglz gives up without reaching its 25 % threshold, for the peer benchmark's random words
// (12,307 bytes either way) as for this project's own docs cut into 10 KB mails (48,302
// bytes stored for 8, about their raw size). Trying cost 0.08–0.19 ms of backend CPU per row
// on PostgreSQL (1,000 blast rows, 3 interleaved pairs; PGlite's wall time was too noisy to
// say more than that it costs there too), once on delivery (search_pending) and once more when
// the indexer moves the row (mail_search). Stored values stay as they are.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE search_pending ALTER COLUMN search SET STORAGE EXTERNAL;
ALTER TABLE mail_search ALTER COLUMN search SET STORAGE EXTERNAL;
`);
}
