import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config.js';
import { openServices } from '../apps/server/src/runtime.js';
import { dbKind, freshEnv, round } from './lib.js';

// The blob collector (BlobService.collect, after every permanent delete and every 10 minutes)
// against a server that has kept BENCH_CONTENTS (200,000) received mails: BENCH_ORPHANS (200)
// unreferenced blobs are collected, and the time per blob is what a purge pays for each blob it
// frees. Every lookup of a collected blob in a referencing table should go through an index
// (migration 042), so the figure should not grow with the mail kept. One JSON line.
const CONTENTS = Number(process.env.BENCH_CONTENTS ?? 200_000);
const ORPHANS = Number(process.env.BENCH_ORPHANS ?? 200);
const step = (what: string) => console.error(`[blob-gc ${new Date().toISOString().slice(11, 19)}] ${what}`);

const { env, cleanup } = await freshEnv('blob-gc');
try {
  const { services, db, close } = await openServices(loadConfig(env));
  try {
    const hash = (s: string) => createHash('sha256').update(s).digest('hex');
    const kept = hash('kept');
    // One shared blob for all the contents (collection never opens it), loaded in SQL as api-list does.
    await sql`INSERT INTO blobs (hash, size, refcount) VALUES (${kept}, 10, ${CONTENTS})`.execute(db.db);
    await sql`INSERT INTO mail_contents (blob_hash, message_id, subject, from_name, from_address, to_list, snippet, text_body)
      SELECT ${kept}::text, '<gc' || i || '@bench.test>', 'Subject ' || i, 'Sender', 'sender@outside.example', '[]'::jsonb, 'snippet', repeat('body text ', 50)
      FROM generate_series(1, ${CONTENTS}) AS i`.execute(db.db);
    await sql`VACUUM ANALYZE`.execute(db.db);
    const orphans = Array.from({ length: ORPHANS }, (_, i) => hash(`orphan-${i}`));
    await sql`INSERT INTO blobs (hash, size, refcount) SELECT h, 10, 0 FROM unnest(${orphans}::text[]) AS h`.execute(db.db);
    step(`${CONTENTS} contents and ${ORPHANS} unreferenced blobs loaded`);
    const t0 = performance.now();
    const collected = await services.blobs.collect(ORPHANS);
    const ms = performance.now() - t0;
    console.log(JSON.stringify({ bench: 'blob-gc', db: dbKind, contents: CONTENTS, collected, collect_ms: round(ms), ms_per_blob: round(ms / Math.max(1, collected), 2) }));
  } finally {
    await close();
  }
} finally {
  await cleanup();
}
