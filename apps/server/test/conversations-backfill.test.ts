import { Migrator, sql, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, migrate, type DbHandle } from '../src/db/connect.js';

// Migration 025 threads the mail that is already stored, with delivery's rules: mail
// linked by headers, a header-less reply by subject and people, and a same-subject mail
// from someone else apart; per mailbox; the counters it builds match the triggers' ones.

const BEFORE = ['001-initial', '002-compose', '003-organise', '004-contacts', '005-account', '006-links', '007-security', '008-inbound-auth',
  '009-signatures', '010-mail-rules', '011-collection', '012-calendar', '013-notes', '014-disk', '015-west', '016-company-life',
  '017-admin-domains', '018-admin-people', '019-admin-audit', '020-admin-migrate', '021-calendar-invites', '022-undo-send',
  '023-calendar-views-itip-out', '024-outbox-blob-release'];

let h: DbHandle;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    const name = `mw_test_backfill_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  h = await connect({ databaseUrl, dataDir: '', memory: true });
});
afterAll(async () => {
  await h?.close();
  await drop?.();
});

it('threads existing mail when migrating, and keeps the counters it builds', async () => {
  const migrations: Record<string, Migration> = {};
  for (const m of BEFORE) migrations[m] = (await import(/* @vite-ignore */ new URL(`../src/db/migrations/${m}.ts`, import.meta.url).href)) as Migration;
  const before = await new Migrator({ db: h.db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  expect(before.error).toBeUndefined();
  const db = h.db;
  await sql`INSERT INTO companies (name) VALUES ('C')`.execute(db);
  await sql`INSERT INTO domains (company_id, name, dkim_selector, dkim_private_key, dkim_public_key) VALUES (1, 'c.test', 's', 'k', 'k')`.execute(db);
  await sql`INSERT INTO users (company_id, domain_id, email, password_hash) VALUES (1, 1, 'u@c.test', 'x'), (1, 1, 'v@c.test', 'x')`.execute(db);
  for (const u of [1, 2]) {
    for (const [mid, name] of [[0, 'Inbox'], [1, 'Sent'], [2, 'Drafts'], [3, 'Spam'], [4, 'Deleted'], [5, 'GroupMail'], [6, 'MailHistory']] as const) {
      await sql`INSERT INTO folders (user_id, mid, name, depth) VALUES (${u}, ${mid}, ${name}, 1)`.execute(db);
    }
  }
  await sql`INSERT INTO blobs (hash, size, refcount) VALUES ('h', 10, 10)`.execute(db);
  const content = async (mid: string, irt: string, subject: string, from: string, to: string, at: string) =>
    (await sql<{ id: number }>`INSERT INTO mail_contents (blob_hash, message_id, in_reply_to, references_list, subject, from_address, to_list, sent_at, thread_subject)
      VALUES ('h', ${mid}, ${irt}, ${irt}, ${subject}, ${from}, ${JSON.stringify([{ name: '', address: to }])}::jsonb, ${at}::timestamptz,
        lower(regexp_replace(${subject}, '^re:\\s*', '', 'i'))) RETURNING id`.execute(db)).rows[0]!.id;
  const message = async (user: number, folder: number, c: number, at: string, seen = false) =>
    (await sql<{ id: number }>`INSERT INTO messages (user_id, folder_mid, content_id, blob_hash, size, received_at, seen)
      VALUES (${user}, ${folder}, ${c}, 'h', 10, ${at}::timestamptz, ${seen}) RETURNING id`.execute(db)).rows[0]!.id;
  const a = await content('<a@x>', '', 'Plan', 'x@o.test', 'u@c.test', '2026-01-01');
  const b = await content('<b@x>', '<a@x>', 'Re: Plan', 'u@c.test', 'x@o.test', '2026-01-02');
  const d = await content('<d@x>', '', 'Re: Plan', 'x@o.test', 'u@c.test', '2026-01-03');
  const e = await content('<e@x>', '', 'Plan', 'y@o.test', 'u@c.test', '2026-01-03');
  const ids = [
    await message(1, 0, a, '2026-01-01'), await message(1, 1, b, '2026-01-02', true), await message(1, 0, d, '2026-01-03'),
    await message(1, 0, e, '2026-01-03'), await message(2, 0, a, '2026-01-01'),
  ];

  await migrate(db);
  const conv = new Map((await db.selectFrom('messages').select(['id', 'conv_id']).execute()).map((r) => [r.id, r.conv_id]));
  expect(conv.get(ids[1]!)).toBe(conv.get(ids[0]!));
  expect(conv.get(ids[2]!)).toBe(conv.get(ids[0]!));
  expect(conv.get(ids[3]!)).not.toBe(conv.get(ids[0]!));
  expect(conv.get(ids[4]!)).not.toBe(conv.get(ids[0]!));
  const folders = await db.selectFrom('folders').select(['user_id', 'mid', 'convs']).where('total', '>', 0).orderBy('user_id').orderBy('mid').execute();
  expect(folders).toEqual([{ user_id: 1, mid: 0, convs: 2 }, { user_id: 1, mid: 1, convs: 1 }, { user_id: 2, mid: 0, convs: 1 }]);
  // New mail numbers its conversations after the existing ones, and the triggers take over.
  const f = await message(1, 0, e, '2026-01-04');
  expect(Number((await db.selectFrom('messages').select('conv_id').where('id', '=', f).executeTakeFirstOrThrow()).conv_id)).toBeGreaterThan(Math.max(...ids));
  expect((await db.selectFrom('folders').select('convs').where('user_id', '=', 1).where('mid', '=', 0).executeTakeFirstOrThrow()).convs).toBe(3);
});
