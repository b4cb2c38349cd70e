import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toast } from 'antd-mobile';
import { setLanguage } from '../i18n';
import { session } from './session';
import { finishWechat, readWechatReturn, WECHAT_MARKER } from './wechat';

// fetch is the browser boundary: the tests answer for the server there.
const STATE = 'a'.repeat(56);
const marker = (purpose: 'login' | 'bind', extra: Record<string, string> = {}) => JSON.stringify({ purpose, state: STATE, ...extra });
let calls: URL[] = [];
let bodies: string[] = [];
let answers: Record<string, unknown> = {};

beforeEach(() => {
  calls = [];
  bodies = [];
  answers = {};
  setLanguage('en');
  session.clearAll();
  sessionStorage.clear();
  vi.stubGlobal('fetch', vi.fn(async (input: string, init: RequestInit) => {
    const url = new URL(input);
    calls.push(url);
    bodies.push(String(init.body ?? ''));
    const body = answers[url.pathname] ?? { code: 200, data: {} };
    return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  Toast.clear();
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

describe('the return from WeChat', () => {
  it('is ours only with our marker and the same state', () => {
    expect(readWechatReturn(`?code=c1&state=${STATE}`, marker('login'))).toEqual({ purpose: 'login', state: STATE, code: 'c1', email: undefined });
    expect(readWechatReturn(`?code=c1&state=${STATE}`, marker('bind', { email: 'alice@demo.test' }))).toMatchObject({ purpose: 'bind', email: 'alice@demo.test' });
    expect(readWechatReturn(`?code=c1&state=${STATE}`, null)).toBeNull();
    expect(readWechatReturn(`?code=c1&state=${'b'.repeat(56)}`, marker('login'))).toBeNull();
    expect(readWechatReturn('?code=c1', marker('login'))).toBeNull();
    expect(readWechatReturn(`?code=c1&state=${STATE}`, '{"purpose":"other","state":"x"}')).toBeNull();
    expect(readWechatReturn(`?code=c1&state=${STATE}`, 'not json')).toBeNull();
  });

  it('has no code when the user declined (WeChat sends the state alone)', () => {
    expect(readWechatReturn(`?state=${STATE}`, marker('login'))?.code).toBeNull();
  });

  it('logs in with the code and state, and takes them out of the address bar', async () => {
    window.history.replaceState(null, '', `/?code=c1&state=${STATE}`);
    sessionStorage.setItem(WECHAT_MARKER, marker('login'));
    answers['/h5/login/wxcode'] = { code: 200, data: { token: 'tok-w', email: 'alice@demo.test' } };
    answers['/h5/mbox/index'] = { code: 200, data: { system: [], custom: [] } };
    expect(await finishWechat()).toEqual({ to: '/pages/list-tab/index' });
    expect(calls[0]!.pathname).toBe('/h5/login/wxcode');
    expect(Object.fromEntries(new URLSearchParams(bodies[0]))).toEqual({ code: 'c1', state: STATE });
    expect(session.get()).toMatchObject({ token: 'tok-w', currentEmailName: 'alice@demo.test' });
    expect(window.location.search).toBe('');
    expect(window.location.hash).toBe('#/');
    expect(sessionStorage.getItem(WECHAT_MARKER)).toBeNull();
  });

  it('goes on to second verification when the mailbox has it on, without a session yet', async () => {
    window.history.replaceState(null, '', `/?code=c1&state=${STATE}`);
    sessionStorage.setItem(WECHAT_MARKER, marker('login'));
    answers['/h5/login/wxcode'] = { code: 200, data: { verify: true, ticket: 't'.repeat(43), ways: ['totp', 'recovery'] } };
    const next = await finishWechat();
    expect(next?.to).toBe(`/pages/verify/index?ticket=${'t'.repeat(43)}&ways=totp%2Crecovery`);
    expect(session.get().token).toBe('');
  });

  it('goes back to login with the server’s refusal toasted', async () => {
    window.history.replaceState(null, '', `/?code=c1&state=${STATE}`);
    sessionStorage.setItem(WECHAT_MARKER, marker('login'));
    answers['/h5/login/wxcode'] = { code: 403, error: 'cannot operate without binding WeChat' };
    expect(await finishWechat()).toEqual({ to: '/pages/login/index' });
    expect(session.get().token).toBe('');
    await vi.waitFor(() => expect(document.body.textContent).toContain('cannot operate without binding WeChat'));
  });

  it('leaves a code it did not ask for alone', async () => {
    window.history.replaceState(null, '', `/?code=c1&state=${STATE}`);
    expect(await finishWechat()).toBeNull();
    expect(calls).toEqual([]);
    expect(window.location.search).toBe(`?code=c1&state=${STATE}`);
  });

  it('binds with the code in the query of the POST, then reloads the settings', async () => {
    session.setToken('tok-a');
    session.setCurrentEmailName('alice@demo.test');
    window.history.replaceState(null, '', `/?code=c2&state=${STATE}`);
    sessionStorage.setItem(WECHAT_MARKER, marker('bind', { email: 'alice@demo.test' }));
    expect(await finishWechat()).toEqual({ to: '/pages/modules/setting-security/index', state: { wechat: 'bound' } });
    const bind = calls.find((u) => u.pathname === '/h5/login/app-bind')!;
    expect(Object.fromEntries(bind.searchParams)).toEqual({ code: 'c2', t: 'tok-a' });
    expect(calls.map((u) => u.pathname).slice(-1)).toEqual(['/h5/setting/index']);
  });

  it('binds nothing without a session, or for another mailbox than the one it started from', async () => {
    window.history.replaceState(null, '', `/?code=c2&state=${STATE}`);
    sessionStorage.setItem(WECHAT_MARKER, marker('bind', { email: 'alice@demo.test' }));
    expect(await finishWechat()).toEqual({ to: '/pages/login/index' });
    session.setToken('tok-b');
    session.setCurrentEmailName('bob@demo.test');
    window.history.replaceState(null, '', `/?code=c3&state=${STATE}`);
    sessionStorage.setItem(WECHAT_MARKER, marker('bind', { email: 'alice@demo.test' }));
    expect(await finishWechat()).toEqual({ to: '/pages/modules/setting-security/index' });
    expect(calls.some((u) => u.pathname === '/h5/login/app-bind')).toBe(false);
  });
});
