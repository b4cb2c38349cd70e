import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { MailList } from '@mailwing/shared';
import { findOne, folderPage } from '../src/features/message/message.repository.js';
import { findLiveSession } from '../src/features/auth/auth.repository.js';
import { hashToken } from '../src/features/auth/session-issuer.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 13: the plain list and the session lookup are prepared statements on generic plans
// (db/prepared.ts). A generic plan cannot see LIMIT, OFFSET or the folder, so the page's ids
// come from mw_folder_page_ids (migration 034), planned with its values. These check that the
// answers are the same as before at every edge of a page, that the statements really are
// generic, and that the generic plan never reads a mailbox whole.
let s: TestServer;
let alice: string;
let aliceId: number;
const MAILS = 3000;

beforeAll(async () => {
  ({ s, alice } = await startDemo());
  const db = s.rt.services.db;
  aliceId = (await db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow()).id;
  // A mailbox big enough that reading it whole would be the planner's choice to avoid:
  // all in the Inbox, with one shared blob (listing never opens it).
  const blob = 'list-plan-blob';
  await sql`INSERT INTO blobs (hash, size, refcount) VALUES (${blob}, 10, ${MAILS})`.execute(db);
  await sql`INSERT INTO mail_contents (blob_hash, message_id, subject, from_name, from_address, to_list, snippet, sent_at)
    SELECT ${blob}, '<plan' || i || '@demo.test>', 'Plan ' || i, 'Sender', 'sender@outside.example', '[]'::jsonb, 'snippet', now() - make_interval(secs => ${MAILS} - i)
    FROM generate_series(1, ${MAILS}) AS i`.execute(db);
  await sql`INSERT INTO messages (user_id, folder_mid, content_id, blob_hash, size, received_at, seen, star, has_attach)
    SELECT ${aliceId}, 0, c.id, c.blob_hash, 100, c.sent_at, (c.id % 3) <> 0, false, false
    FROM mail_contents c WHERE c.blob_hash = ${blob}`.execute(db);
  await sql`ANALYZE`.execute(db);
});
afterAll(async () => {
  await s.stop();
});

const list = async (q: Record<string, string | number>) => (await s.get<MailList>('/h5/mail/list', q, alice)).data;

it('pages of the prepared list are the folder newest first, without gaps or repeats, and end cleanly', async () => {
  const db = s.rt.services.db;
  const expected = (await db.selectFrom('messages').select('id').where('user_id', '=', aliceId).where('folder_mid', '=', 0)
    .orderBy('received_at', 'desc').orderBy('id', 'desc').execute()).map((r) => String(r.id));
  const total = expected.length;
  expect(total).toBeGreaterThanOrEqual(MAILS);
  const first = await list({ mid: 0, page: 1, size: 20 });
  expect(first.total).toBe(total);
  expect(first.list.map((m) => m.id)).toEqual(expected.slice(0, 20));
  const second = await list({ mid: 0, page: 2, size: 20 });
  expect(second.list.map((m) => m.id)).toEqual(expected.slice(20, 40));
  const last = Math.ceil(total / 50);
  expect((await list({ mid: 0, page: last, size: 50 })).list.map((m) => m.id)).toEqual(expected.slice((last - 1) * 50));
  expect((await list({ mid: 0, page: last + 1, size: 50 })).list).toEqual([]);
  // An empty folder of the same mailbox, and a filtered list (planned with its values), answer as before.
  const sent = await list({ mid: 5, page: 1, size: 20 });
  expect(sent).toMatchObject({ total: 0, list: [] });
  const unread = await list({ mid: 0, page: 1, size: 20, filter: 'unread' });
  expect(unread.list.every((m) => !m.read)).toBe(true);
  expect(unread.list).toHaveLength(20);
});

it('the plain list and the session lookup run on generic plans that read by index, never a mailbox whole', async () => {
  const db = s.rt.services.db;
  const tokenHash = hashToken(alice);
  // One transaction: on PostgreSQL the pool would otherwise hand out any of its connections.
  const r = await db.transaction().execute(async (trx) => {
    for (const [mid, offset] of [[0, 0], [0, 20], [0, 2980], [5, 0]] as const) {
      const page = await folderPage(trx, aliceId, mid, 20, offset);
      expect(page?.rows.length).toBe(mid === 0 ? 20 : 0);
    }
    const session = await findLiveSession(trx, tokenHash);
    const plans = (await sql<{ name: string; statement: string; generic_plans: number; custom_plans: number }>`
      SELECT name, statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements
      WHERE name LIKE 'mw_folder_page_%' OR name LIKE 'mw_live_session_%' ORDER BY name`.execute(trx)).rows;
    // The plan the list statement runs on, for a page deep in the mailbox: what a generic plan
    // does with LIMIT/OFFSET it cannot see. The text is the prepared one, so is its plan. Its
    // parameters: the page function's four, the reader (for senders' photos), the folder's two.
    const text = plans.find((p) => p.name.startsWith('mw_folder_page_'))!.statement;
    await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx);
    await sql.raw(`PREPARE list_plan_probe AS ${text}`).execute(trx);
    const explain = (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE list_plan_probe(${aliceId}, 0, 20, 2980, ${aliceId}, ${aliceId}, 0)`).execute(trx)).rows
      .map((x) => x['QUERY PLAN']).join('\n');
    await sql`DEALLOCATE list_plan_probe`.execute(trx);
    return { session, plans, explain };
  });
  expect(r.session?.userId).toBe(aliceId);
  expect(r.plans.map((p) => p.name.replace(/_[0-9a-f]{12}$/, ''))).toEqual(['mw_folder_page', 'mw_live_session']);
  for (const p of r.plans) {
    expect(p.custom_plans).toBe(0);
    expect(p.generic_plans).toBeGreaterThanOrEqual(1);
  }
  // Every read of messages is by its primary key, one per listed id: no scan, hash or sort of the mailbox.
  const onMessages = r.explain.split('\n').filter((l) => / on messages /.test(l));
  expect(onMessages.length).toBeGreaterThan(0);
  for (const l of onMessages) expect(l).toMatch(/Index Scan using messages_pkey on messages m .*loops=20\)/);
  expect(r.explain).toMatch(/Function Scan on mw_folder_page_ids/);
});

it('the conversation list is prepared on a generic plan too, and pages through the folder\'s conversations in order', async () => {
  const db = s.rt.services.db;
  const expected = (await sql<{ last_id: number }>`SELECT last_id FROM conversation_folders WHERE user_id = ${aliceId} AND folder_mid = 0
    ORDER BY last_at DESC, last_id DESC`.execute(db)).rows.map((r) => String(r.last_id));
  expect(expected.length).toBeGreaterThanOrEqual(MAILS);
  const first = await list({ mid: 0, page: 1, size: 20, view: 'conv' });
  expect(first.conversations).toBe(true);
  expect(first.total).toBe(expected.length);
  expect(first.list.map((m) => m.id)).toEqual(expected.slice(0, 20));
  expect((await list({ mid: 0, page: 3, size: 20, view: 'conv' })).list.map((m) => m.id)).toEqual(expected.slice(40, 60));
  expect((await list({ mid: 5, page: 1, size: 20, view: 'conv' })).list).toEqual([]);
  const { conversationPage } = await import('../src/features/conversation/conversation.repository.js');
  const plans = await db.transaction().execute(async (trx) => {
    for (const offset of [0, 20, 2980]) expect((await conversationPage(trx, aliceId, 0, 20, offset))?.rows).toHaveLength(20);
    return (await sql<{ generic_plans: number; custom_plans: number }>`SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements
      WHERE name LIKE 'mw_conversation_page_%'`.execute(trx)).rows;
  });
  // (PGlite has one connection, so its count includes the requests above.)
  expect(plans).toHaveLength(1);
  expect(plans[0]!.custom_plans).toBe(0);
  expect(plans[0]!.generic_plans).toBeGreaterThanOrEqual(3);
});

it('the page functions plan their query once, generic, and read the folder\'s index in order for any page or folder', async () => {
  const db = s.rt.services.db;
  const fns = (await sql<{ proname: string; prosrc: string; proconfig: string[] }>`
    SELECT proname, prosrc, proconfig FROM pg_proc WHERE proname IN ('mw_folder_page_ids', 'mw_folder_conversations') ORDER BY proname`.execute(db)).rows;
  expect(fns.map((f) => f.proname)).toEqual(['mw_folder_conversations', 'mw_folder_page_ids']);
  for (const f of fns) {
    // Planned once per session (no EXECUTE), under the settings that make the generic plan the right one.
    expect(f.prosrc).not.toMatch(/EXECUTE/);
    expect(f.proconfig).toEqual(expect.arrayContaining(['plan_cache_mode=force_generic_plan', 'enable_sort=off', 'enable_seqscan=off']));
    // The function's own query, its parameters as a prepared statement's: its generic plan, run for
    // the first page, a deep page and an empty folder.
    const query = /RETURN QUERY (SELECT[\s\S]*?);/.exec(f.prosrc)![1]!
      .replace(/\buid\b/g, '$1').replace(/\bmid\b/g, '$2').replace(/\blim\b/g, '$3').replace(/\bskip\b/g, '$4');
    const index = f.proname === 'mw_folder_page_ids' ? 'messages_folder_time' : 'conversation_folders_list';
    const plans = await db.transaction().execute(async (trx) => {
      for (const setting of f.proconfig) {
        const [name, value] = setting.split('=');
        await sql`SELECT set_config(${name}, ${value}, true)`.execute(trx);
      }
      await sql.raw(`PREPARE page_fn_probe(bigint, integer, integer, integer) AS ${query}`).execute(trx);
      const out: string[] = [];
      for (const [mid, skip] of [[0, 0], [0, 2980], [5, 0]]) {
        out.push((await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE page_fn_probe(${aliceId}, ${mid}, 20, ${skip})`).execute(trx)).rows
          .map((x) => x['QUERY PLAN']).join('\n'));
      }
      await sql`DEALLOCATE page_fn_probe`.execute(trx);
      return out;
    });
    for (const plan of plans) {
      expect(plan).toMatch(new RegExp(`Index (Only )?Scan using ${index}`));
      expect(plan).not.toMatch(/Sort|Seq Scan|Bitmap/);
    }
    // A deep page reads the index up to its end and no further.
    expect(plans[1]).toMatch(/actual rows=3000 loops=1/);
  }
});

it('a listed row says what the mail\'s own row says: times to the millisecond, tags, an important sender and a colleague\'s photo', async () => {
  const db = s.rt.services.db;
  // The page travels as one JSON value (packedSummary); the mail's own row (findOne) is read column by column.
  const top = (await db.selectFrom('messages').select(['id', 'content_id']).where('user_id', '=', aliceId).where('folder_mid', '=', 0)
    .orderBy('received_at', 'desc').orderBy('id', 'desc').limit(4).execute());
  const [a, b, c, d] = top;
  await sql`INSERT INTO blobs (hash, size, refcount) VALUES ('list-avatar-blob', 10, 1)`.execute(db);
  await sql`UPDATE users SET avatar_hash = 'list-avatar-blob' WHERE email = 'bob@demo.test'`.execute(db);
  await sql`UPDATE mail_contents SET from_address = 'bob@demo.test', to_list = ${JSON.stringify([{ name: '李 "Q"', address: 'q@x.test' }])}::jsonb,
    sent_at = '1969-12-31 23:59:59.999999+00', subject = ${'Tab\there \u2028 😀'} WHERE id = ${a!.content_id}`.execute(db);
  await sql`UPDATE mail_contents SET sent_at = NULL, from_address = 'vip@outside.example' WHERE id = ${b!.content_id}`.execute(db);
  await sql`INSERT INTO contacts (user_id, name, email, important, initial, sort_key) VALUES (${aliceId}, 'VIP', 'vip@outside.example', true, 'V', 'vip')`.execute(db);
  await sql`UPDATE messages SET send_at = '2026-12-01 08:00:00.123999+08', urgent = true, answered = true WHERE id = ${c!.id}`.execute(db);
  const tags = await sql<{ id: number }>`INSERT INTO tags (user_id, name) VALUES (${aliceId}, 'Zeta'), (${aliceId}, 'Alpha') RETURNING id`.execute(db);
  for (const t of tags.rows) await sql`INSERT INTO message_tags (message_id, tag_id) VALUES (${d!.id}, ${t.id})`.execute(db);

  const page = (await folderPage(db, aliceId, 0, 20, 0))!;
  expect(page.rows.slice(0, 4).map((r) => r.id)).toEqual(top.map((t) => t.id));
  for (const row of page.rows) {
    const own = (await findOne(db, aliceId, row.id))!;
    const { tags: rowTags, ...rest } = row;
    expect(rest).toEqual(Object.fromEntries(Object.keys(rest).map((k) => [k, own[k as keyof typeof own]])));
    expect(rowTags).toEqual(row.id === d!.id ? ['Alpha', 'Zeta'] : []);
  }
  const [ra, rb, rc] = page.rows;
  expect(ra!.from_avatar).toBe('list-avatar-blob');
  expect(ra!.sent_at!.getTime()).toBe(-1);
  expect(rb).toMatchObject({ from_important: true, sent_at: null });
  expect(rc!.send_at!.getTime()).toBe(Date.parse('2026-12-01T00:00:00.123Z'));
});
