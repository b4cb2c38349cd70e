import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: on a database without lz4 (PGlite is built without it), a mail's text and HTML
// bodies are stored out of line uncompressed, as its raw bytes already are (migration 035).
// Migration 031 moved them to lz4 where it exists and left pglz elsewhere; on the embedded
// database pglz ran on the one database thread that files every delivery, the serial stage
// of ingest. Measured on PGlite (2-core machine, bench:smtp-ingest, 3,000 mails, two
// interleaved pairs each, 29 Nov 2026), that thread's CPU per mail went:
//   the peer benchmark's random-letter mail (pglz tries, then gives up):  2.31/2.02 -> 1.72/1.77 ms
//   the bench's default mail (words, 4-40 KB, compresses):                4.03/3.81 -> 2.80/2.97 ms
// The price is disk: this project's docs cut into 10 KB mails stored 59 % of their size with
// pglz, so a 10 KB text mail (its raw blob plus its body) takes about a quarter more room.
// A mail's blob, not its body, is the mail; the body is what reading and search are served
// from, and reading it now skips decompression too. Stored values stay as they are.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE mail_contents ALTER COLUMN text_body SET STORAGE EXTERNAL, ALTER COLUMN html SET STORAGE EXTERNAL;
  END IF;
END $$;
`);
}
