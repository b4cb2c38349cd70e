import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Device, SecurityState } from '@mailwing/shared';
import { startDemo, type Envelope, type TestServer } from './harness.js';
import { clearLimits } from './security-helpers.js';

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});
afterEach(async () => clearLimits(s));

const db = () => s.rt.services.db;
const userId = async (email: string) => (await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

/** Logs in with a user agent of its own, as a second phone would. */
async function loginAs(email: string, userAgent: string, password = 'demo1234'): Promise<string> {
  const res = await fetch(`${s.base}/h5/login/h5`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const r = (await res.json()) as Envelope<{ token: string }>;
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data.token;
}

describe('changing the password', () => {
  it('applies the spec §5 rules: all three required, the new ones matching, a sane length, the old one right', async () => {
    const post = (body: Record<string, string>) => s.post('/h5/setting/password', body, alice);
    expect(await post({ old: '', password: '', confirm: '' })).toMatchObject({ code: 422, error: { old: 'is required', password: 'is required', confirm: 'is required' } });
    expect(await post({ old: 'demo1234', password: 'newpass123', confirm: 'newpass124' })).toMatchObject({ code: 422, error: { confirm: 'password empty or repeat mismatch' }, reasons: { confirm: 'password.mismatch' } });
    expect(await post({ old: 'demo1234', password: 'short', confirm: 'short' })).toMatchObject({ code: 422, error: { password: 'must be 8 to 128 characters' }, reasons: { password: 'password.length' } });
    expect(await post({ old: 'wrong-old', password: 'newpass123', confirm: 'newpass123' })).toMatchObject({ code: 403, error: 'The old password is incorrect.', reason: 'password.old_wrong' });
    expect((await s.post('/h5/login/h5', { email: 'alice@demo.test', password: 'demo1234' })).code).toBe(200);
  });

  it('keeps this session, ends every other one, and removes bindings of this mailbox into other accounts', async () => {
    const phone = await loginAs('alice@demo.test', 'Phone');
    const tablet = await loginAs('alice@demo.test', 'Tablet');
    await db().insertInto('mailbox_links').values({ user_id: await userId('bob@demo.test'), linked_user_id: await userId('alice@demo.test') }).execute();
    const r = await s.post('/h5/setting/password', { old: 'demo1234', password: 'alice-new-pw', confirm: 'alice-new-pw' }, phone);
    expect(r).toEqual({ code: 200, data: {} });
    expect((await s.get('/h5/login/check', {}, phone)).code).toBe(200);
    expect((await s.get('/h5/login/check', {}, tablet)).code).toBe(401);
    expect((await s.get('/h5/login/check', {}, alice)).code).toBe(401);
    expect((await s.get('/h5/login/check', {}, bob)).code).toBe(200);
    expect((await s.post('/h5/login/h5', { email: 'alice@demo.test', password: 'demo1234' })).code).toBe(403);
    alice = await s.login('alice@demo.test', 'alice-new-pw');
    expect(await db().selectFrom('mailbox_links').selectAll().execute()).toEqual([]);
  });

  it('limits wrong old passwords per account with 429', async () => {
    for (let i = 0; i < 5; i++) expect((await s.post('/h5/setting/password', { old: `bad-${i}`, password: 'newpass123', confirm: 'newpass123' }, bob)).code).toBe(403);
    const r = await s.post('/h5/setting/password', { old: 'demo1234', password: 'newpass123', confirm: 'newpass123' }, bob);
    expect(r.code).toBe(429);
    expect(r.retryAfter).toBeGreaterThan(800);
  });
});

describe('checking the password (turning the gesture lock off)', () => {
  it('answers 200 for the right password, 403 for a wrong one, 429 after five wrong', async () => {
    expect(await s.post('/h5/setting/verify-password', { password: 'demo1234' }, bob)).toEqual({ code: 200, data: {} });
    expect(await s.post('/h5/setting/verify-password', { password: 'nope' }, bob)).toMatchObject({ code: 403, error: 'The password is incorrect.' });
    expect((await s.post('/h5/setting/verify-password', {}, bob)).error).toEqual({ password: 'is required' });
    for (let i = 0; i < 4; i++) await s.post('/h5/setting/verify-password', { password: `nope${i}` }, bob);
    expect((await s.post('/h5/setting/verify-password', { password: 'demo1234' }, bob)).code).toBe(429);
  });
});

describe('the security question', () => {
  it('is set with the password, needs an answer, shows in the state, and is removed with an empty question', async () => {
    expect((await s.post('/h5/setting/security-question', { password: 'demo1234', question: 'Pet?', answer: ' ' }, bob)).error).toEqual({ answer: 'answer cannot be empty' });
    expect((await s.post('/h5/setting/security-question', { password: 'bad', question: 'Pet?', answer: 'Rex' }, bob)).code).toBe(403);
    const r = await s.post<SecurityState>('/h5/setting/security-question', { password: 'demo1234', question: 'Pet?', answer: 'Rex' }, bob);
    expect(r.data).toEqual({ totp: false, recoveryLeft: 0, backupEmail: null, question: 'Pet?' });
    const hash = (await db().selectFrom('users').select('security_answer_hash').where('email', '=', 'bob@demo.test').executeTakeFirstOrThrow()).security_answer_hash;
    expect(hash).toMatch(/^scrypt\$/);
    const off = await s.post<SecurityState>('/h5/setting/security-question', { password: 'demo1234', question: '' }, bob);
    expect(off.data.question).toBeNull();
  });
});

describe('devices', () => {
  it('lists live sessions newest first with the current one and push marked, in unix seconds', async () => {
    const first = await loginAs('bob@demo.test', 'Mozilla/5.0 (iPhone) Mobile');
    const second = await loginAs('bob@demo.test', 'Mozilla/5.0 (Android) Mobile');
    const secondId = (await db().selectFrom('sessions').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    await db().insertInto('push_subscriptions').values({ user_id: await userId('bob@demo.test'), session_id: secondId, endpoint: 'https://push.example/1', p256dh: 'k', auth: 'a' }).execute();
    const r = await s.get<Device[]>('/h5/setting/devices', {}, first);
    expect(r.code).toBe(200);
    const list = r.data;
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list[0]).toMatchObject({ id: String(secondId), userAgent: 'Mozilla/5.0 (Android) Mobile', ip: '127.0.0.1', current: false, push: true });
    expect(list[1]).toMatchObject({ userAgent: 'Mozilla/5.0 (iPhone) Mobile', current: true, push: false });
    const now = Date.now() / 1000;
    for (const d of list) {
      expect(Math.abs(d.createdAt - now)).toBeLessThan(120);
      expect(d.lastSeenAt).toBeGreaterThanOrEqual(d.createdAt);
    }
    expect(list.filter((d) => d.current)).toHaveLength(1);
    expect([...list].sort((a, b) => b.createdAt - a.createdAt || Number(b.id) - Number(a.id))).toEqual(list);
    // Only bob's own sessions.
    const aliceIds = (await db().selectFrom('sessions').select('id').where('user_id', '=', await userId('alice@demo.test')).execute()).map((x) => String(x.id));
    expect(list.some((d) => aliceIds.includes(d.id))).toBe(false);
    expect(second).toBeTruthy();
  });

  it('signs a device out; another user\'s session id and an unknown id get the same 404', async () => {
    const other = await loginAs('bob@demo.test', 'Old phone');
    const otherId = (await db().selectFrom('sessions').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    expect(await s.post('/h5/setting/device-logout', { id: String(otherId) }, bob)).toEqual({ code: 200, data: {} });
    expect((await s.get('/h5/login/check', {}, other)).code).toBe(401);
    const aliceSession = (await db().selectFrom('sessions').select('id').where('user_id', '=', await userId('alice@demo.test')).executeTakeFirstOrThrow()).id;
    const foreign = await s.post('/h5/setting/device-logout', { id: String(aliceSession) }, bob);
    expect(foreign).toMatchObject({ code: 404, error: 'Device not found' });
    expect(await s.post('/h5/setting/device-logout', { id: '999999999' }, bob)).toEqual(foreign);
    expect((await s.get('/h5/login/check', {}, alice)).code).toBe(200);
    expect((await s.post('/h5/setting/device-logout', { id: 'abc' }, bob)).code).toBe(422);
  });
});
