import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingMessages, type Account, type Settings } from '@mailwing/shared';
import { startTestServer, type TestServer } from './harness.js';
import { enableTotp, totpCode } from './security-helpers.js';

// A stand-in for WeChat's OAuth code exchange (GET /sns/oauth2/access_token), speaking
// its documented protocol: HTTP 200 always, JSON labelled text/plain, {errcode, errmsg}
// on failure. Each code works once, as WeChat's do.
const APPID = 'wx1234567890abcdef';
const SECRET = 'test-app-secret';
const codes = new Map<string, string>([
  ['alice-1', 'openid-alice'], ['alice-2', 'openid-alice'], ['alice-3', 'openid-alice'], ['alice-4', 'openid-alice'], ['stranger-1', 'openid-stranger'],
]);
const used = new Set<string>();
let wechat: http.Server;
let apiBase = '';

function answer(url: URL): Record<string, unknown> | 'hang' {
  const q = url.searchParams;
  if (url.pathname !== '/sns/oauth2/access_token') return { errcode: 40066, errmsg: 'invalid url' };
  if (q.get('appid') !== APPID) return { errcode: 40013, errmsg: 'invalid appid' };
  if (q.get('secret') !== SECRET) return { errcode: 40125, errmsg: 'invalid appsecret' };
  if (q.get('grant_type') !== 'authorization_code') return { errcode: 40002, errmsg: 'invalid grant_type' };
  const code = q.get('code') ?? '';
  if (code === 'slow') return 'hang';
  if (used.has(code)) return { errcode: 40163, errmsg: 'code been used' };
  const openid = codes.get(code);
  if (!openid) return { errcode: 40029, errmsg: 'invalid code' };
  used.add(code);
  return { access_token: 'ACCESS', expires_in: 7200, refresh_token: 'REFRESH', openid, scope: 'snsapi_base' };
}

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  wechat = http.createServer((req, res) => {
    const a = answer(new URL(req.url ?? '/', 'http://x'));
    if (a === 'hang') return; // never answers: the server's timeout must end the wait
    res.setHeader('content-type', 'text/plain');
    res.end(JSON.stringify(a));
  });
  await new Promise<void>((resolve) => wechat.listen(0, '127.0.0.1', () => resolve()));
  apiBase = `http://127.0.0.1:${(wechat.address() as AddressInfo).port}`;
  s = await startTestServer();
  alice = await s.login('alice@demo.test');
  bob = await s.login('bob@demo.test');
});
afterAll(async () => {
  await s?.stop();
  wechat.closeAllConnections();
  await new Promise<void>((resolve) => wechat.close(() => resolve()));
});

describe('WeChat login switched off (the default)', () => {
  it('answers 403 "cannot operate without binding WeChat" on every WeChat route, whatever the input', async () => {
    const off = { code: 403, error: SettingMessages.wechatUnbound, reason: 'wechat.unbound' };
    expect(await s.get('/h5/login/wx')).toEqual(off);
    expect(await s.get('/h5/login/app')).toEqual(off);
    expect(await s.post('/h5/login/wxcode', { code: 'alice-1' })).toEqual(off);
    expect(await s.post('/h5/login/wxcode', {})).toEqual(off);
    expect(await s.post('/h5/login/app-bind?code=alice-1', {}, alice)).toEqual(off);
    // Binding still needs a session first.
    expect((await s.post('/h5/login/app-bind?code=alice-1', {})).code).toBe(401);
  });
});

describe('WeChat login switched on', () => {
  beforeAll(async () => {
    // The stand-in is on loopback, which the outbound guard refuses unless allowed, as an operator's private gateway would be.
    await s.restart({
      wechat: { appId: APPID, secret: SECRET, apiBase, oauthBase: 'https://open.weixin.qq.com', redirectUri: 'https://mail.example.com/' },
      outbound: { allow: ['127.0.0.1/32'], dnsServers: [] },
    });
  });

  it('gives the authorize URL with a signed state, and the appid for the app SDK', async () => {
    const r = await s.get<{ url: string; state: string }>('/h5/login/wx');
    expect(r.code).toBe(200);
    expect(r.data.state).toMatch(/^[0-9a-f]{56}$/);
    expect(r.data.url).toBe(`https://open.weixin.qq.com/connect/oauth2/authorize?appid=${APPID}&redirect_uri=https%3A%2F%2Fmail.example.com%2F`
      + `&response_type=code&scope=snsapi_base&state=${r.data.state}#wechat_redirect`);
    expect(await s.get('/h5/login/app')).toEqual({ code: 200, data: { appid: APPID } });
  });

  it('refuses a WeChat account that is bound to no mailbox', async () => {
    expect(await s.post('/h5/login/wxcode', { code: 'stranger-1' })).toMatchObject({ code: 403, error: SettingMessages.wechatUnbound });
  });

  it('binds the WeChat account to the mailbox, and then logs in with it', async () => {
    expect(await s.post('/h5/login/app-bind?code=alice-1', {}, alice)).toEqual({ code: 200, data: {} });
    expect((await s.get<Settings>('/h5/setting/index', {}, alice)).data.wechatBound).toBe(true);
    expect((await s.get<Settings>('/h5/setting/index', {}, bob)).data.wechatBound).toBe(false);

    const { state } = (await s.get<{ state: string }>('/h5/login/wx')).data;
    const r = await s.post<{ token: string; email: string }>('/h5/login/wxcode', { code: 'alice-2', state });
    expect(r.code).toBe(200);
    expect(r.data.email).toBe('alice@demo.test');
    expect((await s.get<Account>('/h5/login/check', {}, r.data.token)).data.email).toBe('alice@demo.test');
  });

  it('refuses binding a WeChat account that belongs to another mailbox', async () => {
    const r = await s.post('/h5/login/app-bind?code=alice-3', {}, bob);
    expect(r).toMatchObject({ code: 422, error: { code: 'This WeChat account is bound to another mailbox' } });
    expect((await s.get<Settings>('/h5/setting/index', {}, bob)).data.wechatBound).toBe(false);
  });

  it('passes on WeChat\'s refusal of an unknown or used code', async () => {
    expect(await s.post('/h5/login/wxcode', { code: 'nonsense' })).toMatchObject({ code: 422, error: { code: 'WeChat refused the code: invalid code (40029)' } });
    expect(await s.post('/h5/login/wxcode', { code: 'alice-2' })).toMatchObject({ code: 422, error: { code: 'WeChat refused the code: code been used (40163)' } });
    expect(await s.post('/h5/login/wxcode', { code: '  ' })).toMatchObject({ code: 422, error: { code: 'code is empty' } });
  });

  it('refuses a state it did not issue', async () => {
    const { state } = (await s.get<{ state: string }>('/h5/login/wx')).data;
    const forged = `${state.slice(0, 55)}${state.endsWith('0') ? '1' : '0'}`;
    expect(await s.post('/h5/login/wxcode', { code: 'alice-3', state: forged })).toMatchObject({ code: 422, error: { state: expect.any(String) } });
    expect(await s.post('/h5/login/wxcode', { code: 'alice-3', state: 'abc' })).toMatchObject({ code: 422 });
  });

  it('stands in for the password only: a mailbox with second verification still asks for its code', async () => {
    const { secret } = await enableTotp(s, alice, 'alice@demo.test');
    const r = await s.post<{ verify: boolean; ticket: string; ways: string[] }>('/h5/login/wxcode', { code: 'alice-4' });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ verify: true, ways: expect.arrayContaining(['totp', 'recovery']) });
    expect(r.data).not.toHaveProperty('token');
    const done = await s.post<{ token: string; email: string }>('/h5/login/secverify', { ticket: r.data.ticket, way: 'totp', code: totpCode(secret) });
    expect(done).toMatchObject({ code: 200, data: { email: 'alice@demo.test' } });
  });

  it('gives up on WeChat after 5 seconds', async () => {
    const started = Date.now();
    const r = await s.post('/h5/login/wxcode', { code: 'slow' });
    expect(r).toMatchObject({ code: 500, error: 'network timeout: WeChat did not answer, please retry' });
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 15_000);
});
