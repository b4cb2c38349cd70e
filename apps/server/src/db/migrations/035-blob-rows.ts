import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: a small received mail's bytes are kept in its blob row, not in a file of its own
// (blob/blob.service.ts says when and why). STORAGE EXTERNAL: stored out of line and not
// compressed, as the files are; compressing them would cost the delivery's database thread
// what the file it replaces cost the disk's (pglz, on the embedded database, is the dear one).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE blobs ADD COLUMN data bytea;
ALTER TABLE blobs ALTER COLUMN data SET STORAGE EXTERNAL;
`);
}
