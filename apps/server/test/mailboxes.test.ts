import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { SettingMessages, type Account, type BoundMailbox, type Folder } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;
beforeAll(async () => { ({ s, alice, bob } = await startDemo()); });
afterAll(async () => s?.stop());

const whoIs = async (token: string) => {
  const r = await s.get<Account>('/h5/login/check', {}, token);
  return r.code === 200 ? r.data.email : r.code;
};
const inboxUnread = async (token: string) =>
  (await s.get<{ system: Folder[] }>('/h5/mbox/index', {}, token)).data.system.find((f) => f.mid === '0')!.count;
const select = async (token: string) => (await s.get<BoundMailbox[]>('/h5/login/select', {}, token)).data;

let bobViaAlice = '';

describe('binding another mailbox', () => {
  it('needs the other mailbox\'s right password', async () => {
    const r = await s.post('/h5/login/bind', { email: 'bob@demo.test', password: 'wrong' }, alice);
    expect(r.code).toBe(403);
    expect(await s.post('/h5/login/bind', { email: 'ghost@demo.test', password: 'wrong' }, alice)).toEqual(r);
    expect((await s.post('/h5/login/bind', { email: 'bob@demo.test', password: 'demo1234' })).code).toBe(401);
    expect((await s.post('/h5/login/bind', { email: 'not an address', password: '' }, alice)).code).toBe(422);
  });

  it('refuses binding the mailbox one is logged in to', async () => {
    const r = await s.post('/h5/login/bind', { email: 'Alice@demo.test', password: 'demo1234' }, alice);
    expect(r).toMatchObject({ code: 422, error: { email: 'This is the mailbox you are logged in to' } });
  });

  it('binds with the password and gives a session of the bound mailbox', async () => {
    const r = await s.post<{ token: string; email: string }>('/h5/login/bind', { email: 'bob@demo.test', password: 'demo1234' }, alice);
    expect(r.code).toBe(200);
    expect(r.data.email).toBe('bob@demo.test');
    bobViaAlice = r.data.token;
    expect(await whoIs(bobViaAlice)).toBe('bob@demo.test');
    expect(await whoIs(alice)).toBe('alice@demo.test');
  });

  it('refuses binding the same mailbox twice', async () => {
    const r = await s.post('/h5/login/bind', { email: 'bob@demo.test', password: 'demo1234' }, alice);
    expect(r).toMatchObject({ code: 422, error: { email: 'This mailbox is already bound' } });
  });
});

describe('selecting and switching', () => {
  it('lists the current mailbox first, then the bound ones, with their Inbox unread counts', async () => {
    await s.send({ from: 'someone@example.org', to: 'bob@demo.test', subject: 'for bob', text: 'hi' });
    const list = await select(alice);
    expect(list.map((m) => [m.email, m.current])).toEqual([['alice@demo.test', true], ['bob@demo.test', false]]);
    expect(list[0]).toMatchObject({ name: 'alice', nickname: 'Alice Wang', unread: await inboxUnread(alice) });
    expect(list[1]).toMatchObject({ name: 'bob', nickname: 'Bob Li', unread: await inboxUnread(bob) });
    expect(list[1]!.unread).toBeGreaterThan(0);
  });

  it('gives a working token for a bound mailbox, also under the spec\'s double-slash path', async () => {
    const r = await s.get<{ token: string; email: string }>('/h5/login/app-email-select', { email: 'bob@demo.test' }, alice);
    expect(r.code).toBe(200);
    expect(r.data.email).toBe('bob@demo.test');
    expect(r.data.token).not.toBe(bobViaAlice);
    expect(await whoIs(r.data.token)).toBe('bob@demo.test');
    for (const path of ['/h5//login/app-email-select', '//h5/login/app-email-select']) {
      const res = await fetch(`${s.base}${path}?email=bob%40demo.test&t=${alice}`);
      const body = (await res.json()) as { code: number; data: { token: string } };
      expect(body.code).toBe(200);
      expect(await whoIs(body.data.token)).toBe('bob@demo.test');
      // The auth hook still guards the doubled path.
      expect(await (await fetch(`${s.base}${path}?email=bob%40demo.test`)).json()).toMatchObject({ code: 401 });
    }
  });

  it('answers 404 for a mailbox that is not bound', async () => {
    expect((await s.get('/h5/login/app-email-select', { email: 'admin@demo.test' }, alice)).code).toBe(404);
    expect((await s.get('/h5/login/app-email-select', { email: 'ghost@demo.test' }, alice)).code).toBe(404);
  });

  it('from the bound mailbox\'s session lists it first and switches back to the login\'s own mailbox', async () => {
    const list = await select(bobViaAlice);
    expect(list.map((m) => [m.email, m.current])).toEqual([['bob@demo.test', true], ['alice@demo.test', false]]);
    const back = await s.get<{ token: string }>('/h5/login/app-email-select', { email: 'alice@demo.test' }, bobViaAlice);
    expect(back.code).toBe(200);
    expect(await whoIs(back.data.token)).toBe('alice@demo.test');
    // Switching to the mailbox one is in keeps the token.
    const same = await s.get<{ token: string }>('/h5/login/app-email-select', { email: 'bob@demo.test' }, bobViaAlice);
    expect(same.data.token).toBe(bobViaAlice);
  });

  it('is not symmetric: bob logging in on his own sees only his mailbox', async () => {
    expect((await select(bob)).map((m) => m.email)).toEqual(['bob@demo.test']);
    expect((await s.get('/h5/login/app-email-select', { email: 'alice@demo.test' }, bob)).code).toBe(404);
  });
});

describe('unbinding', () => {
  it('refuses the current mailbox and the login\'s own mailbox with the spec\'s message', async () => {
    expect(await s.post('/h5/login/unbind', { email: 'alice@demo.test' }, alice)).toMatchObject({ code: 422, error: { email: SettingMessages.unbindCurrent } });
    expect(await s.post('/h5/login/unbind', { email: 'bob@demo.test' }, bobViaAlice)).toMatchObject({ code: 422, error: { email: SettingMessages.unbindCurrent } });
    expect(await s.post('/h5/login/unbind', { email: 'alice@demo.test' }, bobViaAlice)).toMatchObject({ code: 422, error: { email: SettingMessages.unbindCurrent } });
  });

  it('answers 404 for a mailbox that is not bound', async () => {
    expect((await s.post('/h5/login/unbind', { email: 'admin@demo.test' }, alice)).code).toBe(404);
    expect((await s.post('/h5/login/unbind', { email: 'ghost@demo.test' }, alice)).code).toBe(404);
  });

  it('removes the link and ends the sessions opened for it, not the mailbox\'s own', async () => {
    const r = await s.post('/h5/login/unbind', { email: 'bob@demo.test' }, alice);
    expect(r).toEqual({ code: 200, data: {} });
    expect(await whoIs(bobViaAlice)).toBe(401);
    expect(await whoIs(bob)).toBe('bob@demo.test');
    expect((await s.get('/h5/login/app-email-select', { email: 'bob@demo.test' }, alice)).code).toBe(404);
    expect((await select(alice)).map((m) => m.email)).toEqual(['alice@demo.test']);
  });

  it('logging out of the login ends the sessions of its bound mailboxes', async () => {
    const login = await s.login('alice@demo.test');
    const bound = (await s.post<{ token: string }>('/h5/login/bind', { email: 'bob@demo.test', password: 'demo1234' }, login)).data.token;
    const switched = (await s.get<{ token: string }>('/h5/login/app-email-select', { email: 'bob@demo.test' }, login)).data.token;
    expect(await whoIs(switched)).toBe('bob@demo.test');
    await s.post('/h5/login/logout', {}, login);
    expect(await whoIs(bound)).toBe(401);
    expect(await whoIs(switched)).toBe(401);
    // The link belongs to alice, not to that one login: her other session still has it.
    expect((await select(alice)).map((m) => m.email)).toEqual(['alice@demo.test', 'bob@demo.test']);
    expect((await s.post('/h5/login/unbind', { email: 'bob@demo.test' }, alice)).code).toBe(200);
  });
});

describe('binding a mailbox with second verification on', () => {
  it('answers the second-verification challenge, and secverify completes the bind', async () => {
    const secret = new Secret({ size: 20 });
    await s.rt.services.db.updateTable('users').set({ totp_secret: secret.base32 }).where('email', '=', 'bob@demo.test').execute();
    const r = await s.post<{ verify: true; ticket: string; ways: string[] }>('/h5/login/bind', { email: 'bob@demo.test', password: 'demo1234' }, alice);
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ verify: true, ways: expect.arrayContaining(['totp']) });
    // Not bound until the code is right.
    expect((await select(alice)).map((m) => m.email)).toEqual(['alice@demo.test']);
    const code = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
    const v = await s.post<{ token: string; email: string }>('/h5/login/secverify', { ticket: r.data.ticket, code }, alice);
    expect(v.code).toBe(200);
    expect(v.data.email).toBe('bob@demo.test');
    expect(await whoIs(v.data.token)).toBe('bob@demo.test');
    expect((await select(alice)).map((m) => m.email)).toEqual(['alice@demo.test', 'bob@demo.test']);
    // The new session belongs to the login that asked: unbinding ends it.
    await s.post('/h5/login/unbind', { email: 'bob@demo.test' }, alice);
    expect(await whoIs(v.data.token)).toBe(401);
    await s.rt.services.db.updateTable('users').set({ totp_secret: null }).where('email', '=', 'bob@demo.test').execute();
  });
});

describe('rate limits', () => {
  it('counts wrong bind passwords like wrong login passwords', async () => {
    for (let i = 0; i < 5; i++) expect((await s.post('/h5/login/bind', { email: 'admin@demo.test', password: `bad${i}` }, alice)).code).toBe(403);
    expect((await s.post('/h5/login/bind', { email: 'admin@demo.test', password: 'demo1234' }, alice)).code).toBe(429);
    expect((await s.post('/h5/login/h5', { email: 'admin@demo.test', password: 'demo1234' })).code).toBe(429);
  });
});
