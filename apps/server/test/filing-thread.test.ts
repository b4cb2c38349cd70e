import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Worker } from 'node:worker_threads';
import { FilingThread } from '../src/features/message/filing-thread.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 13: on PostgreSQL a delivery batch is filed from a thread of its own, over its own
// connection (filing-thread.ts). These check what crossing to that thread must keep: the ids
// in order, a small blob's bytes, the refusal of a mailbox no longer active as a 450, and
// that a thread that dies or a connection that drops costs at most the batch in flight.
// The embedded database has no such thread, so these run on the PostgreSQL pass only.
describe.runIf(process.env.DATABASE_URL)('FilingThread', () => {
  let s: TestServer;
  let alice: number;
  let bob: number;
  // The server's own filing thread, if it has filed anything yet.
  let serversOwn: number;
  const threads: FilingThread[] = [];

  beforeAll(async () => {
    ({ s } = await startDemo());
    const users = await s.rt.services.db.selectFrom('users').select(['id', 'email']).where('email', 'in', ['alice@demo.test', 'bob@demo.test']).execute();
    alice = users.find((u) => u.email === 'alice@demo.test')!.id;
    bob = users.find((u) => u.email === 'bob@demo.test')!.id;
    serversOwn = await filingBackends();
  });
  afterAll(async () => {
    for (const t of threads) await t.close();
    await s.stop();
  });

  const open = () => {
    const t = new FilingThread(s.config.databaseUrl!);
    threads.push(t);
    return t;
  };
  const parse = (subject: string) =>
    s.rt.services.parser.parse(Buffer.from(`From: carol@partner.example\r\nTo: alice@demo.test\r\nSubject: ${subject}\r\n\r\n${subject} body\r\n`), 'carol@partner.example');
  const row = (user: number, content: number, hash: string, activeOnly = false) => ({
    user_id: user, folder_mid: 1, content, blob_hash: hash, size: 10, received_at: new Date(), seen: false, star: false,
    urgent: false, has_attach: false, delivery_state: null, bcc: '[]', auth_results: null, active_only: activeOnly,
  });
  const filingBackends = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE application_name = 'mailwing filing' AND datname = current_database()`.execute(s.rt.services.db)).rows[0]!.n;

  it('files a batch over its own connection: ids in the order of the rows, each with its content, a small blob byte for byte', async () => {
    const t = open();
    const [one, two] = [await parse('Thread one'), await parse('Thread two')];
    const bytes = Buffer.from([0, 1, 2, 250, 13, 10, 0, 255]);
    const ids = await t.file({
      blobs: [{ hash: 'thread-a', size: bytes.length, n: 2, data: bytes }, { hash: 'thread-b', size: 10, n: 1 }],
      contents: [{ hash: 'thread-a', content: one }, { hash: 'thread-b', content: two }],
      rows: [row(alice, 1, 'thread-a'), row(bob, 1, 'thread-a'), row(alice, 2, 'thread-b')],
    });
    expect(ids).toHaveLength(3);
    const rows = await s.rt.services.db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
      .select(['m.id', 'm.user_id', 'c.subject']).where('m.id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    expect(ids.map((id) => [byId.get(id)!.user_id, byId.get(id)!.subject])).toEqual([[alice, 'Thread one'], [bob, 'Thread one'], [alice, 'Thread two']]);
    const blob = await s.rt.services.db.selectFrom('blobs').select(['data', 'refcount']).where('hash', '=', 'thread-a').executeTakeFirstOrThrow();
    expect(Buffer.compare(blob.data!, bytes)).toBe(0);
    expect(blob.refcount).toBe(2);
    // Each body arrives whole, and the caller's own bytes stay readable after the crossing: a
    // failed batch is filed again from them, so they must be copied to the thread, never moved.
    const bodies = await s.rt.services.db.selectFrom('mail_contents').select(['subject', 'text_body', 'html']).where('blob_hash', 'in', ['thread-a', 'thread-b']).orderBy('subject').execute();
    expect(bodies.map((b) => [b.subject, b.text_body, b.html])).toEqual([['Thread one', one.text, one.html], ['Thread two', two.text, two.html]]);
    expect(one.text).toContain('Thread one body');
    expect([...bytes]).toEqual([0, 1, 2, 250, 13, 10, 0, 255]);
    expect(await filingBackends()).toBeGreaterThanOrEqual(1);
  });

  it('a second batch sent while the first is at work waits behind it on the one connection: both filed, in the order sent', async () => {
    const t = open();
    const batch = async (hash: string) => ({ blobs: [{ hash, size: 10, n: 2 }], contents: [{ hash, content: await parse(hash) }], rows: [row(alice, 1, hash), row(bob, 1, hash)] });
    const [a, b] = [await batch('thread-q1'), await batch('thread-q2')];
    const [first, second] = await Promise.all([t.file(a), t.file(b)]);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(2);
    expect(Math.max(...first)).toBeLessThan(Math.min(...second));
    const subjects = await s.rt.services.db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
      .select(['m.id', 'c.subject']).where('m.id', 'in', [...first, ...second]).orderBy('m.id').execute();
    expect(subjects.map((r) => r.subject)).toEqual(['thread-q1', 'thread-q1', 'thread-q2', 'thread-q2']);
  });

  it('a burst of SMTP mail, two batches in flight, acknowledges every mail once it is stored, each stored once', async () => {
    // Watches the server's own filing thread (calls go through unchanged): how many batches it holds at once.
    const filing = (s.rt.services.ingest as unknown as { filing: FilingThread }).filing;
    const file = filing.file.bind(filing);
    let inFlight = 0;
    let most = 0;
    filing.file = async (b) => {
      most = Math.max(most, ++inFlight);
      try {
        return await file(b);
      } finally {
        inFlight -= 1;
      }
    };
    const inbox = async () => (await s.rt.services.db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
      .select('c.subject').where('m.user_id', '=', alice).where('c.subject', 'like', 'burst %').execute()).map((r) => r.subject);
    const subjects = Array.from({ length: 40 }, (_, i) => `burst ${i}`);
    try {
      const sent = await Promise.all(subjects.map((subject) => s.send({ from: 'carol@partner.example', to: 'alice@demo.test', subject, text: subject })));
      expect(sent.every((r) => r.accepted.length === 1)).toBe(true);
      expect((await inbox()).sort()).toEqual([...subjects].sort());
      expect(most).toBe(2);
    } finally {
      delete (filing as { file?: unknown }).file;
    }
  });

  it('a mailbox no longer active fails the batch with the same 450 as on the main thread, and nothing of it stands', async () => {
    const t = open();
    const content = await parse('Thread inactive');
    const mails = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM messages`.execute(s.rt.services.db)).rows[0]!.n;
    const before = await mails();
    await s.rt.services.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', bob).execute();
    try {
      const filing = t.file({ blobs: [{ hash: 'thread-c', size: 10, n: 2 }], contents: [{ hash: 'thread-c', content }], rows: [row(alice, 1, 'thread-c', true), row(bob, 1, 'thread-c', true)] });
      await expect(filing).rejects.toMatchObject({ responseCode: 450, message: expect.stringMatching(/^4\.2\.1 /) });
      expect(await mails()).toBe(before);
    } finally {
      await s.rt.services.db.updateTable('users').set({ status: 'active' }).where('id', '=', bob).execute();
    }
  });

  it('after its connection is cut or its thread dies, the next batch is filed; once closed its connection is gone', async () => {
    const t = open();
    const batch = async (hash: string) => ({ blobs: [{ hash, size: 10, n: 1 }], contents: [{ hash, content: await parse(hash) }], rows: [row(alice, 1, hash)] });
    expect(await t.file(await batch('thread-d'))).toHaveLength(1);
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mailwing filing' AND datname = current_database()`.execute(s.rt.services.db);
    // The pool notices the dead connection on the next use at the latest; a batch may fail with it, as on the main thread.
    const e = await batch('thread-e');
    const next = await t.file(e).catch(() => t.file(e));
    expect(next).toHaveLength(1);

    // Each thread it starts has its young generation capped (FILING_HEAP: without the cap V8 often
    // ran a full collection for every few hundred batches' dead buffers).
    const young = (w: Worker) => w.resourceLimits?.maxYoungGenerationSizeMb;
    const first = (t as unknown as { worker: Worker }).worker;
    expect(young(first)).toBe(16);
    await first.terminate();
    expect(await t.file(await batch('thread-f'))).toHaveLength(1);
    const second = (t as unknown as { worker: Worker }).worker;
    expect(second).not.toBe(first);
    expect(young(second)).toBe(16);

    await t.close();
    await expect(t.file(await batch('thread-g'))).rejects.toThrow(/closed/);
    // The other tests' threads closed too: only the server's own is left, if it had one.
    for (const other of threads) await other.close();
    for (let i = 0; i < 50 && (await filingBackends()) > serversOwn; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await filingBackends()).toBe(serversOwn);
  });
});
