import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SearchResult } from '@mailwing/shared';
import { SEARCH_INDEXER_DEFAULTS, SearchIndexer, type SearchIndexerOptions } from '../src/features/search/search-indexer.js';
import { pendingContents, searchPage, storeLexemes } from '../src/features/search/search.repository.js';
import { contentTokens } from '../src/features/search/content-tokens.js';
import { toTsquery } from '../src/features/search/search.service.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 13: a delivery only queues its content in search_pending (migration 037); the indexer
// makes the tokens and writes the GIN index when deliveries pause (migration 030), and a search
// first indexes what waits of its owner's mail. Mail must be findable either way.
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
/** The plan for a common word (walking the mailbox newest-first), straight from the repository. */
const walked = async (q: string) => {
  const db = s.rt.services.db;
  const user = await db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow();
  return (await searchPage(db, user.id, { tsquery: toTsquery(q)! }, 50, 0, true)).map((r) => r.subject).sort();
};
const deliver = (subject: string, text: string, to = 'alice@demo.test') => s.send({ from: 'carol.chen@partner.example', to, subject, text });
const indexer = (opts: SearchIndexerOptions, now: () => number) => new SearchIndexer(s.rt.services.db, (sources) => s.rt.services.parser.tokens(sources), opts, now);

describe('the search index off the delivery path', () => {
  it('queues a delivered mail and indexes it once deliveries pause', async () => {
    let now = 1_000_000;
    const ix = indexer({ batch: 2, loadBatch: 2, quietMs: 300, maxWaiting: 1_000 }, () => now);
    await ix.drain();
    const before = await counts();

    await deliver('Zebracorn quarterly', 'the zebracorn figures for 第四季度');
    await deliver('Second zebracorn note', 'more zebracorn');
    await deliver('Unrelated', 'nothing here');
    // Queued only: no lexemes written by the delivery.
    expect(await counts()).toEqual({ pending: before.pending + 3, indexed: before.indexed });
    expect(await walked('zebracorn')).toEqual([]);

    // A delivery just now: the index waits.
    ix.delivered();
    now += 299;
    expect(await ix.tick()).toBe(0);
    expect((await counts()).pending).toBe(3);
    // A pause: one batch per tick.
    now += 2;
    expect(await ix.tick()).toBe(2);
    expect(await ix.tick()).toBe(1);
    expect(await ix.tick()).toBe(0);
    expect(await counts()).toEqual({ pending: 0, indexed: before.indexed + 3 });
    expect(await walked('zebracorn')).toEqual(['Second zebracorn note', 'Zebracorn quarterly']);
    expect((await subjects('zebracorn')).sort()).toEqual(['Second zebracorn note', 'Zebracorn quarterly']);
    expect(await subjects('第四季度')).toEqual(['Zebracorn quarterly']);
    expect(await subjects('zebr')).toHaveLength(2);
    expect(await subjects('nothing')).toEqual(['Unrelated']);
  });

  it('a search indexes its owner\'s waiting mail first, and nobody else\'s', async () => {
    await indexer(SEARCH_INDEXER_DEFAULTS, () => 0).drain();
    const before = await counts();
    await deliver('Narwhal agenda', 'narwhal meeting notes, attached', 'alice@demo.test');
    await s.send({ from: 'carol.chen@partner.example', to: 'alice@demo.test', subject: 'Plain', text: 'see the file', attachments: [{ filename: 'narwhal-budget.xlsx', content: 'x' }] });
    await deliver('Narwhal for Bob', 'narwhal', 'bob@demo.test');
    expect(await counts()).toEqual({ pending: before.pending + 3, indexed: before.indexed });
    // Found the moment it is delivered, in the subject, body and attachment names.
    expect((await subjects('narwhal')).sort()).toEqual(['Narwhal agenda', 'Plain']);
    expect(await subjects('budget')).toEqual(['Plain']);
    // Alice's two are indexed now; Bob's still waits for the indexer.
    expect(await counts()).toEqual({ pending: before.pending + 1, indexed: before.indexed + 2 });
  });

  it('reads the next batch while writing one, and finds a content queued behind where reading got to', async () => {
    const db = s.rt.services.db;
    const ix = indexer({ batch: 1, loadBatch: 1, quietMs: 0, maxWaiting: 1_000 }, () => 0);
    await ix.drain();
    await deliver('Ahead one', 'pangolin');
    await deliver('Ahead two', 'pangolin');
    const [one, two] = (await db.selectFrom('search_pending').select('content_id').orderBy('content_id').execute()).map((r) => r.content_id);
    expect(await ix.tick()).toBe(1); // one written, two read ahead
    // A content committed late with a lower id (another process's delivery), as if queued now.
    await db.deleteFrom('mail_search').where('content_id', '=', one!).execute();
    await db.insertInto('search_pending').values({ content_id: one! }).execute();
    expect(await ix.tick()).toBe(1); // two, read ahead; nothing after it
    expect(await ix.tick()).toBe(0); // the read ahead came up empty: reading starts over
    expect(await ix.tick()).toBe(1); // and finds one
    expect((await db.selectFrom('mail_search').select('content_id').where('content_id', 'in', [one!, two!]).execute())).toHaveLength(2);
  });

  it('catches up a user\'s waiting mail batch after batch, and only that user\'s', async () => {
    const db = s.rt.services.db;
    const ix = indexer({ batch: 1, loadBatch: 1, quietMs: 300, maxWaiting: 1_000 }, () => 0);
    await ix.drain();
    for (const subject of ['Tapir one', 'Tapir two', 'Tapir three']) await deliver(subject, 'tapir');
    await deliver('Tapir for Bob', 'tapir', 'bob@demo.test');
    const user = await db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow();
    expect(await ix.catchUp(user.id)).toBe(3);
    expect(await walked('tapir')).toEqual(['Tapir one', 'Tapir three', 'Tapir two']);
    expect((await counts()).pending).toBe(1);
    await ix.drain();
  });

  it('keeps up even under load once too much waits, a small batch at a time', async () => {
    let now = 5_000_000;
    const ix = indexer({ batch: 10, loadBatch: 1, quietMs: 300, maxWaiting: 1 }, () => now);
    await ix.drain();
    await deliver('Load one', 'okapi');
    ix.delivered();
    expect(await ix.tick()).toBe(0); // one waiting is allowed
    await deliver('Load two', 'okapi');
    ix.delivered();
    expect(await ix.tick()).toBe(1); // two are over the limit: indexed although mail keeps coming, in load-sized batches
    expect(await ix.tick()).toBe(0); // within the limit again
    now += 301;
    expect(await ix.tick()).toBe(1); // a pause: the rest
    expect((await subjects('okapi')).sort()).toEqual(['Load one', 'Load two']);
  });

  it('a batch read ahead in a pause is written a load-sized piece at a time once deliveries resume', async () => {
    let now = 7_000_000;
    const ix = indexer({ batch: 2, loadBatch: 1, quietMs: 300, maxWaiting: 1 }, () => now);
    await ix.drain();
    for (const n of ['one', 'two', 'three', 'four', 'five']) await deliver(`Resume ${n}`, 'numbat');
    expect(await ix.tick()).toBe(2); // a pause: a full batch, and the next two read ahead
    ix.delivered();
    now += 1;
    expect(await ix.tick()).toBe(1); // mail again, three waiting: one of the two read ahead, not both
    expect((await counts()).pending).toBe(2);
    now += 301;
    await ix.drain();
    expect((await subjects('numbat')).sort()).toEqual(['Resume five', 'Resume four', 'Resume one', 'Resume three', 'Resume two']);
  });

  it('lets a waiting mail go with its content', async () => {
    await deliver('Purged soon', 'quokka');
    const db = s.rt.services.db;
    const row = await db.selectFrom('mail_contents').select('id').where('subject', '=', 'Purged soon').executeTakeFirstOrThrow();
    expect((await db.selectFrom('search_pending').select('content_id').where('content_id', '=', row.id).execute())).toEqual([{ content_id: row.id }]);
    await db.deleteFrom('messages').where('content_id', '=', row.id).execute();
    await sql`DELETE FROM mail_contents WHERE id = ${row.id}`.execute(db);
    expect((await db.selectFrom('search_pending').select('content_id').where('content_id', '=', row.id).execute())).toEqual([]);
    expect(await subjects('quokka')).toEqual([]);
  });

  it('a content another indexer took meanwhile is not written twice', async () => {
    const db = s.rt.services.db;
    await deliver('Raced mail', 'axolotl');
    const [waiting] = await pendingContents(db, 10);
    const tokens = await s.rt.services.parser.tokens([waiting!]);
    expect(await storeLexemes(db, [waiting!.id], tokens)).toBe(1);
    // The second indexer read the same row before the first took it: it finds nothing to take.
    expect(await storeLexemes(db, [waiting!.id], tokens)).toBe(0);
    expect((await db.selectFrom('mail_search').select('content_id').where('content_id', '=', waiting!.id).execute())).toHaveLength(1);
    expect(await subjects('axolotl')).toEqual(['Raced mail']);
  });

  it('makes from the stored content the tokens its parse would give', async () => {
    const db = s.rt.services.db;
    await indexer(SEARCH_INDEXER_DEFAULTS, () => 0).drain();
    await s.send({ from: '"Dana Wu" <dana@partner.example>', to: 'alice@demo.test', cc: '"Bob" <bob@demo.test>', subject: 'Tokens 季度 check', text: 'Ärger über q3季度report', attachments: [{ filename: 'plan 2027.pdf', content: 'x' }] });
    const [stored] = await pendingContents(db, 10);
    const row = await db.selectFrom('mail_contents').select(['blob_hash', 'subject']).where('id', '=', stored!.id).executeTakeFirstOrThrow();
    expect(row.subject).toBe('Tokens 季度 check');
    const parsed = await s.rt.services.parser.parse(await s.rt.services.blobs.get(row.blob_hash), 'dana@partner.example');
    const made = contentTokens(stored!);
    expect(made).toEqual(contentTokens(parsed));
    expect(made).toEqual(expect.arrayContaining(['dana@partner.example', 'bob@demo.test', '季度', 'plan', '2027']));
    expect(await s.rt.services.parser.tokens([stored!])).toEqual([made.join('\n')]);
  });

  it('stores a mail\'s lexemes without compressing them (migration 036)', async () => {
    // Long words that share all but their last digits: a lexeme list the compressor would shrink (pglz gives up on a
    // value whose first 1 KB yields nothing, so the per-word entries before the words must stay under that).
    const text = Array.from({ length: 150 }, (_, i) => `wombat${'quarterlyfigure'.repeat(3)}${String(i).padStart(4, '0')}`).join(' ');
    await deliver('Wombat figures', text);
    const db = s.rt.services.db;
    await indexer(SEARCH_INDEXER_DEFAULTS, () => 0).drain();
    const stored = (await sql<{ method: string | null; bytes: number }>`
      SELECT pg_column_compression(t.search) AS method, pg_column_size(t.search) AS bytes
      FROM mail_search t JOIN mail_contents c ON c.id = t.content_id WHERE c.subject = 'Wombat figures'`.execute(db)).rows;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.method).toBeNull();
    expect(Number(stored[0]!.bytes)).toBeGreaterThan(text.length);
    expect(await subjects(`wombat${'quarterlyfigure'.repeat(3)}0149`)).toEqual(['Wombat figures']);
  });
});
