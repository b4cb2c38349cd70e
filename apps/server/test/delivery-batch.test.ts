import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { fileMail } from '../src/features/message/filing.repository.js';
import { contentTokens } from '../src/features/search/content-tokens.js';
import { resolveLocal } from '../src/features/account/account.repository.js';
import { PLANNED_WITH } from '../src/db/prepared.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 13: a delivery batch is filed by one statement (filing.repository.ts): blob references,
// contents with their search lexemes, and the mail rows threaded. It pairs rows by position
// inside the statement; these check the pairing with a batch of several, where a slip would
// file one mail's lexemes or conversation under another, and that the statement stands or
// fails whole.
let s: TestServer;

beforeAll(async () => {
  ({ s } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

const raw = (subject: string, body: string, headers = '') =>
  Buffer.from(`From: carol@partner.example\r\nTo: alice@demo.test\r\nSubject: ${subject}\r\n${headers}\r\n${body}\r\n`);

const row = (user: number, content: number, seen: boolean, activeOnly = false) => ({
  user_id: user, folder_mid: 0, content, blob_hash: 'batch-test', size: 10, received_at: new Date(), seen, star: false,
  urgent: false, has_attach: false, delivery_state: null, bcc: '[]', auth_results: null, active_only: activeOnly,
});

it('pairs each content with its own lexemes and each mail row with its content, in input order', async () => {
  const db = s.rt.services.db;
  const parse = (r: Buffer) => s.rt.services.parser.parse(r, 'carol@partner.example');
  const a = await parse(raw('Alpha batch', 'aardvarkword', 'Message-ID: <alpha-batch@partner.example>\r\n'));
  const b = await parse(raw('Bravo batch', 'bisonword'));
  const c = await parse(raw('Re: Alpha batch', 'caribouword', 'In-Reply-To: <alpha-batch@partner.example>\r\n'));
  const users = (await db.selectFrom('users').select(['id', 'email']).where('email', 'in', ['alice@demo.test', 'bob@demo.test']).execute());
  const alice = users.find((u) => u.email === 'alice@demo.test')!.id;
  const bob = users.find((u) => u.email === 'bob@demo.test')!.id;

  // Bob before Alice, Bravo before Alpha: the ids must still come back in this order.
  const first = await fileMail(db, {
    blobs: [{ hash: 'batch-test', size: 10, n: 3 }],
    contents: [a, b].map((content) => ({ hash: 'batch-test', content })),
    rows: [row(bob, 2, true), row(alice, 1, false), row(bob, 1, false)],
  });
  expect(first).toHaveLength(3);
  const rows = await db.selectFrom('messages').innerJoin('mail_contents as c', 'c.id', 'messages.content_id')
    .select(['messages.id', 'user_id', 'content_id', 'seen', 'conv_id', 'c.subject']).where('messages.id', 'in', first).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(first.map((id) => [byId.get(id)!.user_id, byId.get(id)!.subject, byId.get(id)!.seen])).toEqual([[bob, 'Bravo batch', true], [alice, 'Alpha batch', false], [bob, 'Alpha batch', false]]);
  const alpha = byId.get(first[1]!)!.content_id;
  expect(byId.get(first[2]!)!.content_id).toBe(alpha);
  // Both contents wait for the search indexer, which makes their lexemes (migration 037).
  const bravo = byId.get(first[0]!)!.content_id;
  const pending = await db.selectFrom('search_pending').select('content_id').where('content_id', 'in', [alpha, bravo]).orderBy('content_id').execute();
  expect(pending.map((p) => p.content_id)).toEqual([alpha, bravo].sort((x, y) => x - y));
  expect((await db.selectFrom('blobs').select('refcount').where('hash', '=', 'batch-test').executeTakeFirstOrThrow()).refcount).toBe(3);

  // A reply in a later batch joins each mailbox's own conversation of the mail it answers.
  const replies = await fileMail(db, { blobs: [{ hash: 'batch-test', size: 10, n: 2 }], contents: [{ hash: 'batch-test', content: c }], rows: [row(alice, 1, false), row(bob, 1, false)] });
  const conv = async (id: number) => (await db.selectFrom('messages').select('conv_id').where('id', '=', id).executeTakeFirstOrThrow()).conv_id;
  expect(await conv(replies[0]!)).toBe(await conv(first[1]!));
  expect(await conv(replies[1]!)).toBe(await conv(first[2]!));
  expect(await conv(first[1]!)).not.toBe(await conv(first[2]!));
  expect(await conv(first[0]!)).not.toBe(await conv(first[2]!));
  expect((await db.selectFrom('blobs').select('refcount').where('hash', '=', 'batch-test').executeTakeFirstOrThrow()).refcount).toBe(5);
});

it('a row for a mailbox no longer active fails the whole statement: no content, row, lexemes or reference stands', async () => {
  const db = s.rt.services.db;
  const content = await s.rt.services.parser.parse(raw('Delta batch', 'dolphinword'), 'carol@partner.example');
  const users = await db.selectFrom('users').select(['id', 'email']).where('email', 'in', ['alice@demo.test', 'bob@demo.test']).execute();
  const alice = users.find((u) => u.email === 'alice@demo.test')!.id;
  const bob = users.find((u) => u.email === 'bob@demo.test')!.id;
  const counts = async () => (await sql<{ contents: number; mails: number; pending: number; refs: number | null }>`SELECT
    (SELECT count(*)::int FROM mail_contents) AS contents, (SELECT count(*)::int FROM messages) AS mails,
    (SELECT count(*)::int FROM search_pending) AS pending, (SELECT refcount FROM blobs WHERE hash = 'inactive-test') AS refs`.execute(db)).rows[0]!;
  const before = await counts();
  await db.updateTable('users').set({ status: 'disabled' }).where('id', '=', bob).execute();
  try {
    // One connection, so the session the statement failed in is the one asked afterwards.
    const mode = await db.connection().execute(async (conn) => {
      const filing = fileMail(conn, { blobs: [{ hash: 'inactive-test', size: 10, n: 2 }], contents: [{ hash: 'inactive-test', content }], rows: [row(alice, 1, false, true), row(bob, 1, false, true)] });
      await expect(filing).rejects.toMatchObject({ responseCode: 450 });
      return (await sql<{ plan_cache_mode: string }>`SHOW plan_cache_mode`.execute(conn)).rows[0]!.plan_cache_mode;
    });
    // The generic-plan setting was the failed statement's alone (db/prepared.ts).
    expect(mode).toBe('auto');
    expect(await counts()).toEqual(before);
    expect(before.refs).toBeNull();
    // Once active again the same batch goes in whole.
    await db.updateTable('users').set({ status: 'active' }).where('id', '=', bob).execute();
    const ids = await fileMail(db, { blobs: [{ hash: 'inactive-test', size: 10, n: 2 }], contents: [{ hash: 'inactive-test', content }], rows: [row(alice, 1, false, true), row(bob, 1, false, true)] });
    expect(ids).toHaveLength(2);
    const after = await counts();
    expect(after).toEqual({ contents: before.contents + 1, mails: before.mails + 2, pending: before.pending + 1, refs: 2 });
  } finally {
    await db.updateTable('users').set({ status: 'active' }).where('id', '=', bob).execute();
  }
});

it('the filing statement and the RCPT lookup are prepared once per connection and run on their generic plans', async () => {
  const db = s.rt.services.db;
  const content = await s.rt.services.parser.parse(raw('Echo batch', 'emuword'), 'carol@partner.example');
  const alice = (await db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow()).id;
  // One transaction: on PostgreSQL the pool would otherwise hand out any of its connections.
  const plans = await db.transaction().execute(async (trx) => {
    for (let i = 0; i < 3; i++) await fileMail(trx, { blobs: [{ hash: `prepared-test-${i}`, size: 10, n: 1 }], contents: [{ hash: `prepared-test-${i}`, content }], rows: [row(alice, 1, false)] });
    // The RCPT lookup too: it answers from the prepared statement as from any other.
    for (let i = 0; i < 2; i++) expect(await resolveLocal(trx, 'Alice@demo.test')).toMatchObject([{ userId: alice, via: 'direct', full: false, companyStatus: 'active' }]);
    expect(await resolveLocal(trx, 'nobody@demo.test')).toEqual([]);
    const mode = (await sql<{ plan_cache_mode: string }>`SHOW plan_cache_mode`.execute(trx)).rows[0]!.plan_cache_mode;
    return { mode, rows: (await sql<{ name: string; generic_plans: number; custom_plans: number }>`
      SELECT name, generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name LIKE 'mw_file_mail_%' OR name LIKE 'mw_rcpt_user_%' ORDER BY name`.execute(trx)).rows };
  });
  // Other statements of the session are planned as before, with their values.
  expect(plans.mode).toBe('auto');
  expect(plans.rows.map((r) => r.name.replace(/_[0-9a-f]{12}$/, ''))).toEqual(['mw_file_mail', 'mw_rcpt_user']);
  for (const r of plans.rows) {
    expect(r.custom_plans).toBe(0);
    expect(r.generic_plans).toBeGreaterThanOrEqual(1);
  }
});

it('a mail\'s search tokens come sorted as the database orders lexemes, so its tsvector is built in one pass', async () => {
  const content = await s.rt.services.parser.parse(raw('Zebra quarterly 季度报告 Ärger', 'yak apple Émile 2026 q3季度report zoo@example.com apple'), 'carol@partner.example');
  const tokens = contentTokens(content);
  expect(new Set(tokens).size).toBe(tokens.length);
  const lexemes = (await sql<{ l: string }>`SELECT unnest(tsvector_to_array(array_to_tsvector(${tokens}::text[]))) AS l`.execute(s.rt.services.db)).rows.map((r) => r.l);
  expect(tokens).toEqual(lexemes);
  expect(tokens).toContain('季度');
});

it('stores a delivered body with lz4 where the database has it, and uncompressed where it does not (migration 038)', async () => {
  const db = s.rt.services.db;
  // Prose that repeats: pglz would shrink it to a fraction, so a stored size near the text's own says it was not compressed.
  const text = Array.from({ length: 400 }, (_, i) => `The quarterly report for region ${i % 7} is attached.`).join('\n');
  await s.send({ from: 'carol@partner.example', to: 'alice@demo.test', subject: 'Storage of bodies', text, html: `<p>${text}</p>` });
  const lz4 = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)`.execute(db)).rows[0]!.n === 1;
  const stored = (await sql<{ text_method: string | null; text_bytes: number; html_method: string | null; html_bytes: number; text_len: number }>`
    SELECT pg_column_compression(text_body) AS text_method, pg_column_size(text_body) AS text_bytes, octet_length(text_body) AS text_len,
      pg_column_compression(html) AS html_method, pg_column_size(html) AS html_bytes
    FROM mail_contents WHERE subject = 'Storage of bodies'`.execute(db)).rows;
  expect(stored).toHaveLength(1);
  const [r] = stored;
  if (lz4) {
    expect([r!.text_method, r!.html_method]).toEqual(['lz4', 'lz4']);
    expect(Number(r!.text_bytes)).toBeLessThan(Number(r!.text_len) / 4);
  } else {
    expect([r!.text_method, r!.html_method]).toEqual([null, null]);
    expect(Number(r!.text_bytes)).toBeGreaterThanOrEqual(Number(r!.text_len));
    expect(Number(r!.html_bytes)).toBeGreaterThanOrEqual(Number(r!.text_len));
  }
});

it('the filing statement\'s generic plan, made while the tables are small, finds each link by index and never reads a table whole', async () => {
  // The demo's few mails are what a new company starts with: the moment a process first files mail, and so plans this
  // statement for the connection's life. A plan made then must not read mail_contents or users whole for every mail.
  const db = s.rt.services.db;
  const content = await s.rt.services.parser.parse(raw('Foxtrot batch', 'foxword', 'References: <a@x.example> <b@x.example>\r\n'), 'carol@partner.example');
  const alice = (await db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow()).id;
  const plan = await db.transaction().execute(async (trx) => {
    await fileMail(trx, { blobs: [{ hash: 'plan-test', size: 10, n: 1 }], contents: [{ hash: 'plan-test', content }], rows: [row(alice, 1, false, true)] });
    const text = (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'mw_file_mail_%'`.execute(trx)).rows[0]!.statement;
    const params = Math.max(...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
    for (const [name, value] of PLANNED_WITH) await sql`SELECT set_config(${name}, ${value}, true)`.execute(trx);
    await sql.raw(`PREPARE filing_plan_probe AS ${text}`).execute(trx);
    // Without ANALYZE nothing runs; on a generic plan the values do not matter.
    const lines = (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) EXECUTE filing_plan_probe(${Array(params).fill('NULL').join(', ')})`).execute(trx)).rows.map((r) => r['QUERY PLAN']);
    await sql`DEALLOCATE filing_plan_probe`.execute(trx);
    return lines.join('\n');
  });
  expect(plan).toMatch(/Index Scan using mail_contents_message_id on mail_contents/);
  expect(plan).toMatch(/Index Scan using users_pkey on users/);
  expect(plan).not.toMatch(/Seq Scan on (mail_contents|messages|users|blobs)\b/);
  // A bitmap of every content that has a Message-ID is a full read too, only by way of the index.
  expect(plan).not.toMatch(/message_id <> ''::text\)\s*$/m);
  expect(plan).not.toMatch(/Hash Cond: \(c\.message_id/);
  // The subject lookup walks the subject index newest first and stops at the first of the mailbox's mails; sorting every
  // mail of the thread in its window made each delivery into a long thread (an hourly report, an alert) slower than the last.
  expect(plan).toMatch(/Index Scan Backward using mail_contents_subject_people on mail_contents/);
  expect(plan).not.toMatch(/Sort Key: m_\d+\.received_at/);
});

it('the counting trigger, whenever it was first planned, updates each mailbox\'s quota through the users key (migration 039)', async () => {
  // The trigger keeps its plans for the session's life; made while `users` is small (as in the demo), a plain plan reads
  // every user per delivery batch. Its own settings must keep the update on the index.
  const db = s.rt.services.db;
  const plan = await db.transaction().execute(async (trx) => {
    const fn = (await sql<{ src: string; config: string[] | null }>`SELECT prosrc AS src, proconfig AS config FROM pg_proc WHERE proname = 'messages_after_insert'`.execute(trx)).rows[0]!;
    const update = /UPDATE users u SET used_bytes[^;]*/.exec(fn.src)![0];
    for (const setting of fn.config ?? []) {
      const [name, value] = setting.split('=');
      await sql`SELECT set_config(${name}, ${value}, true)`.execute(trx);
    }
    // The transition table the trigger reads, stood in for by a table of the same shape.
    await sql`CREATE TEMP TABLE new_rows ON COMMIT DROP AS SELECT * FROM messages LIMIT 8`.execute(trx);
    return (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${update}`).execute(trx)).rows.map((r) => r['QUERY PLAN']).join('\n');
  });
  expect(plan).toMatch(/Index Scan using users_pkey on users u/);
  expect(plan).not.toMatch(/Seq Scan on users/);
});

it('stores each content of a batch with its own text and HTML, byte for byte, whatever their lengths and scripts', async () => {
  const db = s.rt.services.db;
  const parse = (r: Buffer) => s.rt.services.parser.parse(r, 'carol@partner.example');
  const alice = (await db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow()).id;
  const html = (body: string) => `Content-Type: text/html; charset=utf-8\r\n\r\n<p>${body}</p>`;
  const contents = [
    await parse(raw('Bodies one', '季度报告 😀 ünïcode\r\nsecond line')),
    await parse(raw('Bodies two', '')),
    { ...(await parse(Buffer.from(`From: carol@partner.example\r\nSubject: Bodies three\r\n${html('<b>粗体</b> &amp; more')}\r\n`))) },
    { ...(await parse(raw('Bodies four', 'x'.repeat(70_000)))), html: '<p>kept 𝄞 as is</p>' },
    // A lone surrogate cannot be stored as UTF-8: it becomes U+FFFD on its way to the database.
    { ...(await parse(raw('Bodies five', 'plain'))), text: 'broken \ud800 pair', html: '' },
  ];
  const ids = await fileMail(db, {
    blobs: [{ hash: 'batch-bodies', size: 10, n: contents.length }],
    contents: contents.map((content) => ({ hash: 'batch-bodies', content })),
    rows: contents.map((_, i) => row(alice, i + 1, true)),
  });
  const stored = await db.selectFrom('messages').innerJoin('mail_contents as c', 'c.id', 'messages.content_id')
    .select(['messages.id', 'c.subject', 'c.text_body', 'c.html']).where('messages.id', 'in', ids).execute();
  const byId = new Map(stored.map((r) => [r.id, r]));
  expect(ids.map((id) => byId.get(id)!.subject)).toEqual(contents.map((c) => c.subject));
  expect(ids.map((id) => byId.get(id)!.text_body)).toEqual([...contents.slice(0, 4).map((c) => c.text), 'broken \ufffd pair']);
  expect(ids.map((id) => byId.get(id)!.html)).toEqual(contents.map((c) => c.html));
  expect(contents[0]!.text).toContain('季度报告 😀');
  expect(contents[2]!.html).toContain('粗体');
  expect(contents[3]!.text.length).toBeGreaterThan(69_000);
});
