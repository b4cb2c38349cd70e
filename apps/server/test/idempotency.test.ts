import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailList, SendResult } from '@mailwing/shared';
import { sweepIdempotencyKeys } from '../src/features/idempotency/idempotency.hook.js';
import { withIdempotencyTables } from '../src/features/idempotency/tables.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 15, scope 3: the offline outbox replays write/send with an Idempotency-Key. The same
// key from the same user returns the first answer and never sends twice, even when two
// requests race; the key's lifetime runs on services.idempotencyClock, moved here, never slept.

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
}, 180_000);
afterAll(async () => {
  s.rt.services.idempotencyClock.now = () => new Date();
  await s?.stop();
});

interface Answer<T> { code: number; data: T; reason?: string; reasons?: Record<string, string>; replayed: string | null }

async function post<T>(route: string, body: Record<string, string | number>, token: string, key?: string): Promise<Answer<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' };
  if (key !== undefined) headers['Idempotency-Key'] = key;
  const params = new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await fetch(`${s.base}${route}`, { method: 'POST', headers, body: params.toString() });
  return { ...((await res.json()) as Omit<Answer<T>, 'replayed'>), replayed: res.headers.get('idempotent-replayed') };
}

const sentWith = async (token: string, subject: string) =>
  (await s.get<MailList>('/h5/mail/list', { mid: '1', size: 100 }, token)).data.list.filter((m) => m.subject === subject);
const inboxWith = async (token: string, subject: string) =>
  (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 100 }, token)).data.list.filter((m) => m.subject === subject);

describe('Idempotency-Key on write/send', () => {
  it('two requests at once with one key send one mail, and both get its id', async () => {
    const form = { to: 'bob@demo.test', subject: 'Idem race', html: '<p>once</p>' };
    const answers = await Promise.all([1, 2, 3].map(() => post<SendResult>('/h5/write/send', form, alice, 'race-key-1')));
    expect(answers.map((a) => a.code)).toEqual([200, 200, 200]);
    const ids = new Set(answers.map((a) => a.data.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.replayed === 'true')).toHaveLength(2);
    expect(await sentWith(alice, 'Idem race')).toHaveLength(1);
    await expect.poll(async () => (await inboxWith(bob, 'Idem race')).length).toBe(1);
    // A retry later (the answer was lost offline) still sends nothing.
    const again = await post<SendResult>('/h5/write/send', form, alice, 'race-key-1');
    expect(again).toMatchObject({ code: 200, data: { id: answers[0]!.data.id }, replayed: 'true' });
    expect(await sentWith(alice, 'Idem race')).toHaveLength(1);
    expect(await inboxWith(bob, 'Idem race')).toHaveLength(1);
  });

  it('a key is answered in the transaction of the send: a failure after the rows of the mail are written leaves neither', async () => {
    const db = s.rt.services.db;
    const subject = 'Idem atomic';
    // Outside recipient too, so the outbound queue is part of the send.
    const form = { to: 'bob@demo.test', cc: 'carol@outside.example', subject, html: '<p>one commit</p>' };
    const queued = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM outbox`.execute(db)).rows[0]!.n);
    const keyRow = () => withIdempotencyTables(db).selectFrom('idempotency_keys').select(['state', 'response']).where('key', '=', 'atomic-key-1').executeTakeFirst();
    const queuedBefore = await queued();
    // The seam: the database refuses to record the key's answer (as a crash at that very
    // moment would). The send wrote its rows just before; they must not commit without it.
    await sql`CREATE FUNCTION mw_test_refuse_answer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'answer refused (test)'; END $$`.execute(db);
    await sql`CREATE TRIGGER mw_test_refuse_answer BEFORE UPDATE ON idempotency_keys FOR EACH ROW WHEN (NEW.state = 'done') EXECUTE FUNCTION mw_test_refuse_answer()`.execute(db);
    try {
      const failed = await post<SendResult>('/h5/write/send', form, alice, 'atomic-key-1');
      expect(failed.code).not.toBe(200);
    } finally {
      await sql`DROP TRIGGER mw_test_refuse_answer ON idempotency_keys`.execute(db);
      await sql`DROP FUNCTION mw_test_refuse_answer()`.execute(db);
    }
    expect(await sentWith(alice, subject)).toHaveLength(0);
    expect(await inboxWith(bob, subject)).toHaveLength(0);
    expect(await queued()).toBe(queuedBefore);
    // Nothing was sent, so the key is free: the retry runs, once.
    expect(await keyRow()).toBeUndefined();
    const sent = await post<SendResult>('/h5/write/send', form, alice, 'atomic-key-1');
    expect(sent).toMatchObject({ code: 200, replayed: null });
    // Answered in the send's transaction: the stored answer is the one the client got.
    const row = await keyRow();
    expect(row?.state).toBe('done');
    expect(JSON.parse(row!.response!)).toMatchObject({ code: 200, data: sent.data });
    const again = await post<SendResult>('/h5/write/send', form, alice, 'atomic-key-1');
    expect(again).toMatchObject({ code: 200, data: { id: sent.data.id }, replayed: 'true' });
    expect(await sentWith(alice, subject)).toHaveLength(1);
    expect(await queued()).toBe(queuedBefore + 1);
    await expect.poll(async () => (await inboxWith(bob, subject)).length).toBe(1);
  });

  it('without a key each request sends (the header is opt-in)', async () => {
    const form = { to: 'bob@demo.test', subject: 'Idem none', html: '<p>x</p>' };
    await post('/h5/write/send', form, alice);
    await post('/h5/write/send', form, alice);
    expect(await sentWith(alice, 'Idem none')).toHaveLength(2);
  });

  it('another user reusing the key is independent', async () => {
    const a = await post<SendResult>('/h5/write/send', { to: 'bob@demo.test', subject: 'Idem alice', html: '<p>a</p>' }, alice, 'shared-key');
    const b = await post<SendResult>('/h5/write/send', { to: 'alice@demo.test', subject: 'Idem bob', html: '<p>b</p>' }, bob, 'shared-key');
    expect(a.code).toBe(200);
    expect(b).toMatchObject({ code: 200, replayed: null });
    expect(b.data.id).not.toBe(a.data.id);
    expect(await sentWith(bob, 'Idem bob')).toHaveLength(1);
    expect(await sentWith(alice, 'Idem alice')).toHaveLength(1);
  });

  it('a key reused with a different body is refused with a reason, and sends nothing', async () => {
    expect((await post('/h5/write/send', { to: 'bob@demo.test', subject: 'Idem first', html: '<p>1</p>' }, alice, 'reuse-key')).code).toBe(200);
    const other = await post('/h5/write/send', { to: 'bob@demo.test', subject: 'Idem second', html: '<p>2</p>' }, alice, 'reuse-key');
    expect(other).toMatchObject({ code: 422, reason: 'idempotency.key_reused', reasons: { 'Idempotency-Key': 'idempotency.key_reused' } });
    // The same body on another route is another request too.
    expect(await post('/h5/mailop/star', { ids: '1', star: 1 }, alice, 'reuse-key')).toMatchObject({ code: 422, reason: 'idempotency.key_reused' });
    expect(await sentWith(alice, 'Idem second')).toHaveLength(0);
  });

  it('a malformed key is refused before anything runs', async () => {
    const r = await post('/h5/write/send', { to: 'bob@demo.test', subject: 'Idem bad key', html: '<p>x</p>' }, alice, 'has space');
    expect(r).toMatchObject({ code: 422, reason: 'idempotency.bad_key' });
    expect(await post('/h5/write/send', { to: 'bob@demo.test', subject: 'Idem bad key', html: '<p>x</p>' }, alice, 'x'.repeat(201))).toMatchObject({ reason: 'idempotency.bad_key' });
    expect(await sentWith(alice, 'Idem bad key')).toHaveLength(0);
  });

  it('a refused first request frees its key, so the corrected retry runs', async () => {
    const bad = await post('/h5/write/send', { to: 'nobody-here@demo.test', subject: 'Idem refused', html: '<p>x</p>' }, alice, 'refused-key');
    expect(bad.code).not.toBe(200);
    const rows = await withIdempotencyTables(s.rt.services.db).selectFrom('idempotency_keys').selectAll().where('key', '=', 'refused-key').execute();
    expect(rows).toHaveLength(0);
    const good = await post('/h5/write/send', { to: 'nobody-here@demo.test', subject: 'Idem refused', html: '<p>x</p>' }, alice, 'refused-key');
    expect(good.code).toBe(bad.code);
  });
});

describe('Idempotency-Key on queued actions', () => {
  it('a replayed star answers the first result', async () => {
    const mail = (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 1 }, alice)).data.list[0]!;
    const first = await post<{ changed: number }>('/h5/mailop/star', { ids: mail.id, star: 1 }, alice, 'star-key');
    const second = await post<{ changed: number }>('/h5/mailop/star', { ids: mail.id, star: 1 }, alice, 'star-key');
    expect(first).toMatchObject({ code: 200, replayed: null });
    expect(second).toMatchObject({ code: 200, data: first.data, replayed: 'true' });
  });
});

describe('key lifetime', () => {
  it('keys expire after 24 hours on the clock and the sweep removes them', async () => {
    const db = s.rt.services.db;
    const base = Date.now();
    s.rt.services.idempotencyClock.now = () => new Date(base);
    const form = { to: 'bob@demo.test', subject: 'Idem ttl', html: '<p>t</p>' };
    expect((await post('/h5/write/send', form, alice, 'ttl-key')).code).toBe(200);
    expect(await sweepIdempotencyKeys(db, new Date(base + 23 * 3600_000))).toBe(0);
    expect((await post('/h5/write/send', form, alice, 'ttl-key')).replayed).toBe('true');
    const swept = await sweepIdempotencyKeys(db, new Date(base + 25 * 3600_000));
    expect(swept).toBeGreaterThanOrEqual(1);
    const left = await withIdempotencyTables(db).selectFrom('idempotency_keys').select('key').where('key', '=', 'ttl-key').execute();
    expect(left).toHaveLength(0);
    // Once forgotten, the key names a new request.
    expect((await post('/h5/write/send', form, alice, 'ttl-key')).replayed).toBeNull();
    expect(await sentWith(alice, 'Idem ttl')).toHaveLength(2);
  });
});

describe('OpenAPI', () => {
  it('documents the header on signed-in POSTs and the reason codes', async () => {
    const doc = (await (await fetch(`${s.base}/h5/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
      components: { schemas: { Reason: { enum: string[] } } };
    };
    const params = doc.paths['/h5/write/send']?.post?.parameters ?? [];
    expect(params).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
    expect(doc.components.schemas.Reason.enum).toEqual(expect.arrayContaining(['idempotency.key_reused', 'idempotency.in_progress', 'idempotency.bad_key']));
  });
});
