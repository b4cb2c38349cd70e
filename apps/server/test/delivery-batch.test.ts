import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { insertThreaded } from '../src/features/conversation/conversation.repository.js';
import { insertContents } from '../src/features/message/message.repository.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 13: a delivery batch writes its contents with their search lexemes in one statement,
// and its mail rows threaded in one more. Both pair rows by position inside the statement;
// these check the pairing with a batch of several, where a slip would file one mail's
// lexemes or conversation under another.
let s: TestServer;

beforeAll(async () => {
  ({ s } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

const raw = (subject: string, body: string, headers = '') =>
  Buffer.from(`From: carol@partner.example\r\nTo: alice@demo.test\r\nSubject: ${subject}\r\n${headers}\r\n${body}\r\n`);

it('pairs each content with its own lexemes and each mail row with its content, in input order', async () => {
  const db = s.rt.services.db;
  const parse = (r: Buffer) => s.rt.services.parser.parse(r, 'carol@partner.example');
  const a = await parse(raw('Alpha batch', 'aardvarkword', 'Message-ID: <alpha-batch@partner.example>\r\n'));
  const b = { ...(await parse(raw('Bravo batch', 'bisonword'))), searchTokens: '' };
  const c = await parse(raw('Re: Alpha batch', 'caribouword', 'In-Reply-To: <alpha-batch@partner.example>\r\n'));
  const users = (await db.selectFrom('users').select(['id', 'email']).where('email', 'in', ['alice@demo.test', 'bob@demo.test']).execute());
  const alice = users.find((u) => u.email === 'alice@demo.test')!.id;
  const bob = users.find((u) => u.email === 'bob@demo.test')!.id;
  await sql`INSERT INTO blobs (hash, size, refcount) VALUES ('batch-test', 10, 6)`.execute(db);

  const { contents, first } = await db.transaction().execute(async (trx) => {
    const contents = await insertContents(trx, [a, b].map((content) => ({ hash: 'batch-test', content })));
    const row = (user: number, content: number, seen: boolean) => ({
      user_id: user, folder_mid: 0, content_id: content, blob_hash: 'batch-test', size: 10, received_at: new Date(), seen, star: false,
      urgent: false, has_attach: false, delivery_state: null, bcc: '[]', auth_results: null,
    });
    // Bob before Alice, Bravo before Alpha: the ids must still come back in this order.
    const first = await insertThreaded(trx, [row(bob, contents[1]!, true), row(alice, contents[0]!, false), row(bob, contents[0]!, false)]);
    return { contents, first };
  });
  expect(contents).toHaveLength(2);
  const pending = await db.selectFrom('search_pending').select(['content_id', sql<string>`search::text`.as('search')]).where('content_id', 'in', contents).execute();
  expect(pending.map((p) => p.content_id)).toEqual([contents[0]]);
  expect(pending[0]!.search).toContain('aardvarkword');

  const rows = await db.selectFrom('messages').select(['id', 'user_id', 'content_id', 'seen', 'conv_id']).where('id', 'in', first).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(first.map((id) => [byId.get(id)!.user_id, byId.get(id)!.content_id, byId.get(id)!.seen])).toEqual([[bob, contents[1], true], [alice, contents[0], false], [bob, contents[0], false]]);

  // A reply in a later batch joins each mailbox's own conversation of the mail it answers.
  const [replyContent] = await db.transaction().execute((trx) => insertContents(trx, [{ hash: 'batch-test', content: c }]));
  const replies = await db.transaction().execute((trx) => insertThreaded(trx, [alice, bob].map((user) => ({
    user_id: user, folder_mid: 0, content_id: replyContent!, blob_hash: 'batch-test', size: 10, received_at: new Date(), seen: false, star: false,
    urgent: false, has_attach: false, delivery_state: null, bcc: '[]', auth_results: null,
  }))));
  const conv = async (id: number) => (await db.selectFrom('messages').select('conv_id').where('id', '=', id).executeTakeFirstOrThrow()).conv_id;
  expect(await conv(replies[0]!)).toBe(await conv(first[1]!));
  expect(await conv(replies[1]!)).toBe(await conv(first[2]!));
  expect(await conv(first[1]!)).not.toBe(await conv(first[2]!));
  expect(await conv(first[0]!)).not.toBe(await conv(first[2]!));
});
