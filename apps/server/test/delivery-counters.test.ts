import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { MailEvent } from '../src/features/events/event-bus.js';
import { fileMail } from '../src/features/message/filing.repository.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 13: one AFTER INSERT trigger on messages (migration 032) keeps what three did:
// folder totals, unread and conversation counts, the conversation rows, the mailbox's used
// bytes, and the live event per mailbox. A batch of several mails into two mailboxes and
// three folders, then a reply that joins an existing conversation, is checked against
// counts made from the rows themselves.
let s: TestServer;

beforeAll(async () => {
  ({ s } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

const raw = (subject: string, headers = '') =>
  Buffer.from(`From: carol@partner.example\r\nTo: alice@demo.test\r\nSubject: ${subject}\r\n${headers}\r\n${subject} body\r\n`);

it('a multi-mail batch into two mailboxes keeps every folder counter, conversation row, used bytes and event', async () => {
  const db = s.rt.services.db;
  const parse = (r: Buffer) => s.rt.services.parser.parse(r, 'carol@partner.example');
  const users = await db.selectFrom('users').select(['id', 'email']).where('email', 'in', ['alice@demo.test', 'bob@demo.test']).execute();
  const alice = users.find((u) => u.email === 'alice@demo.test')!.id;
  const bob = users.find((u) => u.email === 'bob@demo.test')!.id;
  const mine = [alice, bob];

  const folders = async () => new Map((await db.selectFrom('folders').select(['user_id', 'mid', 'total', 'unread', 'convs']).where('user_id', 'in', mine).execute())
    .map((f) => [`${f.user_id}/${f.mid}`, { total: f.total, unread: f.unread, convs: f.convs }]));
  const used = async () => new Map((await db.selectFrom('users').select(['id', 'used_bytes']).where('id', 'in', mine).execute()).map((u) => [u.id, Number(u.used_bytes)]));
  // What the counters must be, counted from the rows.
  const recount = async () => {
    const r = await sql<{ user_id: number; mid: number; total: number; unread: number; convs: number }>`
      SELECT f.user_id, f.mid,
        (SELECT count(*)::int FROM messages m WHERE m.user_id = f.user_id AND m.folder_mid = f.mid) AS total,
        (SELECT count(*)::int FROM messages m WHERE m.user_id = f.user_id AND m.folder_mid = f.mid AND NOT m.seen) AS unread,
        (SELECT count(DISTINCT m.conv_id)::int FROM messages m WHERE m.user_id = f.user_id AND m.folder_mid = f.mid) AS convs
      FROM folders f WHERE f.user_id IN (${alice}, ${bob})`.execute(db);
    return new Map(r.rows.map((f) => [`${f.user_id}/${f.mid}`, { total: f.total, unread: f.unread, convs: f.convs }]));
  };
  const convRows = async () => (await sql<{ user_id: number; conv_id: number; folder_mid: number; n: number; unread: number; last_id: number }>`
    SELECT user_id, conv_id, folder_mid, n, unread, last_id FROM conversation_folders WHERE user_id IN (${alice}, ${bob}) ORDER BY 1, 2, 3`.execute(db)).rows;
  const convRecount = async () => (await sql<{ user_id: number; conv_id: number; folder_mid: number; n: number; unread: number; last_id: number }>`
    SELECT user_id, conv_id, folder_mid, count(*)::int AS n, (count(*) FILTER (WHERE NOT seen))::int AS unread,
      (array_agg(id ORDER BY received_at DESC, id DESC))[1] AS last_id
    FROM messages WHERE user_id IN (${alice}, ${bob}) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`.execute(db)).rows;

  const events: MailEvent[] = [];
  const offs = mine.map((u) => s.rt.services.events.subscribe(u, (e) => events.push(e)));
  const before = await folders();
  const usedBefore = await used();

  const parsed = [await parse(raw('Counter one', 'Message-ID: <counter-one@partner.example>\r\n')), await parse(raw('Counter two')), await parse(raw('Counter three'))];
  const row = (user: number, folder: number, content: number, seen: boolean, size: number) => ({
    user_id: user, folder_mid: folder, content, blob_hash: 'counters-test', size, received_at: new Date(), seen, star: false,
    urgent: false, has_attach: false, delivery_state: null, bcc: '[]', auth_results: null,
  });
  // One statement: Alice gets two unread in the Inbox and a read one in Spam; Bob a read and an unread one in the Inbox and one in GroupMail.
  const ids = await fileMail(db, {
    blobs: [{ hash: 'counters-test', size: 1000, n: 6 }],
    contents: parsed.map((content) => ({ hash: 'counters-test', content })),
    rows: [row(alice, 0, 1, false, 100), row(alice, 0, 2, false, 200), row(alice, 3, 3, true, 300), row(bob, 0, 1, true, 400), row(bob, 0, 2, false, 500), row(bob, 5, 3, false, 600)],
  });
  expect(ids).toHaveLength(6);

  const after = await folders();
  const delta = (key: string) => {
    const a = after.get(key)!;
    const b = before.get(key)!;
    return { total: a.total - b.total, unread: a.unread - b.unread, convs: a.convs - b.convs };
  };
  expect(delta(`${alice}/0`)).toEqual({ total: 2, unread: 2, convs: 2 });
  expect(delta(`${alice}/3`)).toEqual({ total: 1, unread: 0, convs: 1 });
  expect(delta(`${bob}/0`)).toEqual({ total: 2, unread: 1, convs: 2 });
  expect(delta(`${bob}/5`)).toEqual({ total: 1, unread: 1, convs: 1 });
  expect(after).toEqual(await recount());
  expect(await convRows()).toEqual(await convRecount());
  const usedAfter = await used();
  expect(usedAfter.get(alice)! - usedBefore.get(alice)!).toBe(600);
  expect(usedAfter.get(bob)! - usedBefore.get(bob)!).toBe(1500);

  // One 'new' event per mailbox, naming its own ids and folders.
  await expect.poll(() => events.length).toBeGreaterThanOrEqual(2);
  const news = events.filter((e) => e.kind === 'new');
  expect(news.map((e) => [e.userId, [...e.ids].sort((a, b) => a - b), [...e.folders].sort((a, b) => a - b)]).sort((a, b) => Number(a[0]) - Number(b[0])))
    .toEqual([[alice, ids.slice(0, 3), [0, 3]], [bob, ids.slice(3), [0, 5]]].sort((a, b) => Number(a[0]) - Number(b[0])));

  // A reply joins Alice's conversation of Counter one: the Inbox counts one more mail and unread, the same conversations.
  const replyContent = await parse(raw('Re: Counter one', 'In-Reply-To: <counter-one@partner.example>\r\n'));
  const mid = await folders();
  const [replyId] = await fileMail(db, { blobs: [{ hash: 'counters-test', size: 1000, n: 1 }], contents: [{ hash: 'counters-test', content: replyContent }], rows: [row(alice, 0, 1, false, 50)] });
  const end = await folders();
  const a0 = (m: Map<string, { total: number; unread: number; convs: number }>) => m.get(`${alice}/0`)!;
  expect({ total: a0(end).total - a0(mid).total, unread: a0(end).unread - a0(mid).unread, convs: a0(end).convs - a0(mid).convs }).toEqual({ total: 1, unread: 1, convs: 0 });
  const conv = await db.selectFrom('messages').select('conv_id').where('id', 'in', [ids[0]!, replyId!]).execute();
  expect(new Set(conv.map((c) => c.conv_id)).size).toBe(1);
  const joined = (await convRows()).find((c) => c.user_id === alice && c.conv_id === conv[0]!.conv_id && c.folder_mid === 0)!;
  expect({ n: joined.n, unread: joined.unread, last_id: Number(joined.last_id) }).toEqual({ n: 2, unread: 2, last_id: replyId });
  expect(end).toEqual(await recount());
  expect(await convRows()).toEqual(await convRecount());
  for (const off of offs) off();
});
