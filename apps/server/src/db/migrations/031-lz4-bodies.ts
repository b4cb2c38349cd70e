import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: the database's CPU per delivered mail. A mail's bodies (text and HTML) are
// stored compressed (TOAST), and PostgreSQL's default compressor, pglz, was a large share
// of inserting a mail: a 10 KB body took 1.13 ms of backend CPU with pglz and 0.51 ms with
// lz4 (the peer benchmark's mail, measured on the shared 2-core machine).
// lz4 also decompresses several times faster when a mail is read. Only new values are
// compressed this way; stored ones stay as they are and are read either way, so no data
// changes. PGlite is built without lz4 and keeps pglz. The search lexemes (migration 030's
// tables) are left as they are: building the tsvector, not compressing it, is their cost.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE mail_contents ALTER COLUMN text_body SET COMPRESSION lz4, ALTER COLUMN html SET COMPRESSION lz4,
      ALTER COLUMN attachments SET COMPRESSION lz4, ALTER COLUMN references_list SET COMPRESSION lz4;
  END IF;
END $$;
`);
}
