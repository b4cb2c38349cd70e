import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { collectableQuery } from '../src/blob/blob.repository.js';
import type { Db } from '../src/db/connect.js';
import { startDemo, type TestServer } from './harness.js';

// Migration 042: PostgreSQL never indexes the referencing side of a foreign key, so without
// one every delete of a referenced row reads the referencing table whole. For blobs that was
// mail_contents, a row per mail ever received, read twice per collected blob.
let s: TestServer;

beforeAll(async () => {
  ({ s } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

/** Foreign keys without an index that starts with their columns and holds every row their lookup can find, as "table (cols) -> referenced". */
async function unindexedKeys(db: Db): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    SELECT c.conrelid::regclass::text || ' (' || (
        SELECT string_agg(a.attname, ', ' ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) || ') -> ' || c.confrelid::regclass::text AS key
    FROM pg_constraint c
    WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
      AND NOT EXISTS (
        SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid
          AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
          AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey
          -- A partial index serves the key's lookup (col = $1) only if its condition follows from it.
          AND (i.indpred IS NULL OR (cardinality(c.conkey) = 1 AND pg_get_expr(i.indpred, i.indrelid) =
            '(' || (SELECT attname FROM pg_attribute WHERE attrelid = c.conrelid AND attnum = c.conkey[1]) || ' IS NOT NULL)')))
    ORDER BY 1`.execute(db);
  return rows.map((r) => r.key);
}

it('every foreign key has an index that starts with its columns and holds every row its lookup can find', async () => {
  const db = s.rt.services.db;
  expect(await unindexedKeys(db)).toEqual([]);
  // The same check lists a key without an index, and one whose only index is partial on another condition.
  await sql`CREATE TABLE fk_probe (blob_hash text REFERENCES blobs(hash), user_id bigint REFERENCES users(id), live boolean)`.execute(db);
  try {
    await sql`CREATE INDEX fk_probe_user_live ON fk_probe (user_id) WHERE live`.execute(db);
    expect(await unindexedKeys(db)).toEqual(['fk_probe (blob_hash) -> blobs', 'fk_probe (user_id) -> users']);
    await sql`CREATE INDEX fk_probe_blob ON fk_probe (blob_hash) WHERE blob_hash IS NOT NULL`.execute(db);
    expect(await unindexedKeys(db)).toEqual(['fk_probe (user_id) -> users']);
  } finally {
    await sql`DROP TABLE fk_probe`.execute(db);
  }
});

it('the blob collector looks at mail_contents, outbox and uploads through their indexes, and collects only what nothing references', async () => {
  const db = s.rt.services.db;
  const blobs = s.rt.services.blobs;
  const [kept, orphan, held] = ['kept', 'orphan', 'held'].map((n) => createHash('sha256').update(`fk-${n}`).digest('hex'));
  // Enough received mail that reading mail_contents whole would show in the plan's cost.
  await sql`INSERT INTO blobs (hash, size, refcount) VALUES (${kept}, 10, 2000), (${orphan}, 10, 0), (${held}, 10, 0)`.execute(db);
  await sql`INSERT INTO mail_contents (blob_hash, message_id, subject, from_name, from_address, to_list, snippet)
    SELECT ${kept}::text, '<fk' || i || '@demo.test>', 'FK ' || i, 'Sender', 'sender@outside.example', '[]'::jsonb, 'snippet'
    FROM generate_series(1, 2000) AS i`.execute(db);
  // A content whose blob lost its count (a repair in progress, say) still keeps the blob.
  await sql`INSERT INTO mail_contents (blob_hash, message_id, subject, from_name, from_address, to_list, snippet)
    VALUES (${held}, '<fk-held@demo.test>', 'held', 'Sender', 'sender@outside.example', '[]'::jsonb, 'snippet')`.execute(db);
  await sql`ANALYZE`.execute(db);

  const plan = await db.transaction().execute(async (trx) => {
    // Priced out, a sequential read remains only where no index can serve (db/prepared.ts does the same).
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    const q = collectableQuery(trx, orphan!).compile();
    const r = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${q.sql}`, [...q.parameters]));
    return r.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
  for (const table of ['mail_contents', 'outbox', 'uploads']) {
    expect(plan).toMatch(new RegExp(`Index (Only )?Scan using \\w+ on ${table}`));
    expect(plan).not.toMatch(new RegExp(`Seq Scan on ${table}`));
  }

  await blobs.collect();
  const left = await db.selectFrom('blobs').select('hash').where('hash', 'in', [kept!, orphan!, held!]).execute();
  expect(left.map((r) => r.hash).sort()).toEqual([held!, kept!].sort());
});
