import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// A finished delivery (sent or failed) no longer needs its message's bytes; the row stays as
// the record of what happened. Until now its foreign key still pinned the blob, so the
// collector's delete of a blob whose last reference had gone (a system mail once sent, a sent
// copy purged after delivery) failed on the constraint, and failed the request that ran it
// (a recall, a permanent delete). The collector keeps blobs of held and queued jobs
// (blob.repository `lockIfCollectable`); for finished ones the key now lets go.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE outbox ALTER COLUMN blob_hash DROP NOT NULL;
ALTER TABLE outbox DROP CONSTRAINT outbox_blob_hash_fkey;
ALTER TABLE outbox ADD CONSTRAINT outbox_blob_hash_fkey FOREIGN KEY (blob_hash) REFERENCES blobs(hash) ON DELETE SET NULL;
`);
}
