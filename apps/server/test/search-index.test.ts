import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SearchResult } from '@mailwing/shared';
import { SearchIndexer } from '../src/features/search/search-indexer.js';
import { searchPage } from '../src/features/search/search.repository.js';
import { toTsquery } from '../src/features/search/search.service.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 13: a delivery writes its lexemes to search_pending, and the indexer moves them into
// the GIN index when deliveries pause (migration 030). Mail must be findable either way.
let s: TestServer;
let alice: string;

beforeAll(async () => {
  ({ s, alice } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

const subjects = async (q: string) => {
  const r = await s.get<SearchResult>('/h5/search/mail', { q, size: 50 }, alice);
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data.list.map((m) => m.subject);
};
const counts = async () => {
  const db = s.rt.services.db;
  const n = async (table: 'search_pending' | 'mail_search') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { pending: await n('search_pending'), indexed: await n('mail_search') };
};
/** The plan for a common word (walking the mailbox newest-first) must see both tables too. */
const walked = async (q: string) => {
  const db = s.rt.services.db;
  const user = await db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow();
  return (await searchPage(db, user.id, { tsquery: toTsquery(q)! }, 50, 0, true)).map((r) => r.subject).sort();
};
const deliver = (subject: string, text: string) => s.send({ from: 'carol.chen@partner.example', to: 'alice@demo.test', subject, text });

describe('the search index off the delivery path', () => {
  it('finds a mail before and after it is indexed, and the index waits while deliveries stream in', async () => {
    let now = 1_000_000;
    const indexer = new SearchIndexer(s.rt.services.db, { batch: 2, quietMs: 300, maxWaiting: 1_000 }, () => now);
    await indexer.drain();
    const before = await counts();

    await deliver('Zebracorn quarterly', 'the zebracorn figures for 第四季度');
    await deliver('Second zebracorn note', 'more zebracorn');
    await deliver('Unrelated', 'nothing here');
    expect(await counts()).toEqual({ pending: before.pending + 3, indexed: before.indexed });
    // Not indexed yet, and found: the waiting lexemes are searched too.
    expect((await subjects('zebracorn')).sort()).toEqual(['Second zebracorn note', 'Zebracorn quarterly']);
    expect(await subjects('第四季度')).toEqual(['Zebracorn quarterly']);
    expect(await walked('zebracorn')).toEqual(['Second zebracorn note', 'Zebracorn quarterly']);

    // A delivery just now: the index waits.
    indexer.delivered();
    now += 299;
    expect(await indexer.tick()).toBe(0);
    expect((await counts()).pending).toBe(3);
    // A pause: one batch per tick.
    now += 2;
    expect(await indexer.tick()).toBe(2);
    expect(await indexer.tick()).toBe(1);
    expect(await indexer.tick()).toBe(0);
    expect(await counts()).toEqual({ pending: 0, indexed: before.indexed + 3 });
    expect((await subjects('zebracorn')).sort()).toEqual(['Second zebracorn note', 'Zebracorn quarterly']);
    expect(await subjects('第四季度')).toEqual(['Zebracorn quarterly']);
    expect(await subjects('zebr')).toHaveLength(2);
    expect(await walked('zebracorn')).toEqual(['Second zebracorn note', 'Zebracorn quarterly']);
  });

  it('keeps up even under load once too much waits', async () => {
    let now = 5_000_000;
    const indexer = new SearchIndexer(s.rt.services.db, { batch: 10, quietMs: 300, maxWaiting: 1 }, () => now);
    await deliver('Load one', 'okapi');
    indexer.delivered();
    expect(await indexer.tick()).toBe(0); // one waiting is allowed
    await deliver('Load two', 'okapi');
    indexer.delivered();
    expect(await indexer.tick()).toBe(2); // two are over the limit: indexed although mail keeps coming
    now += 1;
    expect((await subjects('okapi')).sort()).toEqual(['Load one', 'Load two']);
  });

  it('lets a mail\'s lexemes go with its content', async () => {
    await deliver('Purged soon', 'quokka');
    const db = s.rt.services.db;
    const row = await db.selectFrom('mail_contents').select('id').where('subject', '=', 'Purged soon').executeTakeFirstOrThrow();
    await db.deleteFrom('messages').where('content_id', '=', row.id).execute();
    await sql`DELETE FROM mail_contents WHERE id = ${row.id}`.execute(db);
    expect((await db.selectFrom('search_pending').select('content_id').where('content_id', '=', row.id).execute())).toEqual([]);
    expect(await subjects('quokka')).toEqual([]);
  });

  it('stores a mail\'s lexemes without compressing them, waiting and indexed (migration 036)', async () => {
    // Long words that share all but their last digits: a lexeme list the compressor would shrink (pglz gives up on a
    // value whose first 1 KB yields nothing, so the per-word entries before the words must stay under that).
    const text = Array.from({ length: 150 }, (_, i) => `wombat${'quarterlyfigure'.repeat(3)}${String(i).padStart(4, '0')}`).join(' ');
    await deliver('Wombat figures', text);
    const db = s.rt.services.db;
    const stored = async (table: 'search_pending' | 'mail_search') => (await sql<{ method: string | null; bytes: number }>`
      SELECT pg_column_compression(t.search) AS method, pg_column_size(t.search) AS bytes
      FROM ${sql.table(table)} t JOIN mail_contents c ON c.id = t.content_id WHERE c.subject = 'Wombat figures'`.execute(db)).rows;
    const waiting = await stored('search_pending');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.method).toBeNull();
    expect(Number(waiting[0]!.bytes)).toBeGreaterThan(text.length);
    await new SearchIndexer(db).drain();
    expect((await stored('mail_search')).map((r) => r.method)).toEqual([null]);
    expect(await subjects(`wombat${'quarterlyfigure'.repeat(3)}0149`)).toEqual(['Wombat figures']);
  });
});
