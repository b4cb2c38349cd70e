import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Modal, Toast } from 'antd-mobile';
import { session, sessionStore } from '../state/session';
import { setLanguage } from '../i18n';
import { apiBaseFor, errorText, request, type ApiError } from './request';

// fetch is the browser boundary: the tests stand in for the server there and
// let everything of ours (envelope handling, session, antd-mobile UI) run.
interface Call {
  url: URL;
  init: RequestInit;
}
let calls: Call[] = [];

function answer(body: unknown, status = 200): void {
  vi.stubGlobal('fetch', vi.fn(async (input: string, init: RequestInit) => {
    calls.push({ url: new URL(input), init });
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  }));
}

async function seen(text: string): Promise<void> {
  await vi.waitFor(() => expect(document.body.textContent).toContain(text), { timeout: 2000 });
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a rejection');
}

beforeEach(() => {
  calls = [];
  setLanguage('en');
  session.clearAll();
  window.location.hash = '#/pages/list-tab/index';
});

afterEach(() => {
  vi.unstubAllGlobals();
  Toast.clear();
  Modal.clear();
  document.body.innerHTML = '';
});

describe('request encoding (spec §7)', () => {
  it('GET sends data in the query with the token as t', async () => {
    session.setToken('tok123');
    answer({ code: 200, data: { ok: 1 } });
    const data = await request('/mail/list', { data: { mid: '0', page: 2, skip: undefined }, loading: false });
    expect(data).toEqual({ ok: 1 });
    const { url, init } = calls[0]!;
    expect(url.origin).toBe(window.location.origin);
    expect(url.pathname).toBe('/h5/mail/list');
    expect(Object.fromEntries(url.searchParams)).toEqual({ mid: '0', page: '2', t: 'tok123' });
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });

  it('POST sends a form-encoded body; t stays in the query', async () => {
    session.setToken('tok123');
    answer({ code: 200, data: null });
    await request('/mailop/star', { method: 'POST', data: { ids: '1,2', star: true }, loading: false });
    const { url, init } = calls[0]!;
    expect(url.searchParams.get('t')).toBe('tok123');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(String(init.body)).toBe('ids=1%2C2&star=1');
  });

  it('sends no t when logged out', async () => {
    answer({ code: 200, data: {} });
    await request('/login/h5', { method: 'POST', data: { email: 'a@b.test', password: 'x' }, loading: false });
    expect(calls[0]!.url.searchParams.has('t')).toBe(false);
  });

  it('adds t to a query the path already has (spec §7: login/app-bind?code=)', async () => {
    session.setToken('tok123');
    answer({ code: 200, data: {} });
    await request('/login/app-bind?code=a%26b', { method: 'POST', loading: false });
    const { url } = calls[0]!;
    expect(url.pathname).toBe('/h5/login/app-bind');
    expect(Object.fromEntries(url.searchParams)).toEqual({ code: 'a&b', t: 'tok123' });
  });

  it('shows the loading toast by default and not when turned off', async () => {
    let release: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (release = resolve))));
    const pending = request('/uniapp/version');
    await seen('loading...');
    release(new Response(JSON.stringify({ code: 200, data: {} })));
    await pending;
    await vi.waitFor(() => expect(document.body.textContent).not.toContain('loading...'));
    const quiet = request('/uniapp/version', { loading: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(document.body.textContent).not.toContain('loading...');
    release(new Response(JSON.stringify({ code: 200, data: {} })));
    await quiet;
  });
});

describe('error catalogue (spec §8)', () => {
  it('401 logs the user out and goes to login', async () => {
    session.setToken('tok');
    session.setCurrentEmailName('alice@demo.test');
    answer({ code: 401, error: 'not logged in' });
    const error = await rejection(request('/mbox/index', { loading: false }));
    expect(error.code).toBe(401);
    expect(sessionStore.get().token).toBe('');
    expect(localStorage.getItem('token')).toBeNull();
    expect(window.location.hash).toBe('#/pages/login/index');
    await seen('You are currently logged out. Please log in again.');
  });

  it("401 for another mailbox's token rejects without logging the current one out", async () => {
    session.setToken('tok');
    session.setCurrentEmailName('alice@demo.test');
    answer({ code: 401, error: 'not logged in' });
    const error = await rejection(request('/login/check', { loading: false, quiet: true, token: 'other' }));
    expect(error.code).toBe(401);
    expect(calls[0]?.url.searchParams.get('t')).toBe('other');
    expect(sessionStore.get().token).toBe('tok');
    expect(window.location.hash).toBe('#/pages/list-tab/index');
  });

  it('401 for a token switched away from while the call ran keeps the new session', async () => {
    session.setToken('old');
    let release: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (release = resolve))));
    const pending = rejection(request('/mbox/index', { loading: false, quiet: true }));
    session.setToken('new');
    release(new Response(JSON.stringify({ code: 401, error: 'not logged in' })));
    expect((await pending).code).toBe(401);
    expect(sessionStore.get().token).toBe('new');
  });

  it('501 on the auto-login call goes to the login page without a modal', async () => {
    answer({ code: 501, error: 'unknown token' });
    await rejection(request('/login/h5-auto-login', { method: 'POST', data: { token: 'x', email: 'a@b.test' }, loading: false }));
    expect(window.location.hash).toBe('#/pages/login/index');
    await new Promise((r) => setTimeout(r, 50));
    expect(document.body.textContent).not.toContain('Warm reminder');
  });

  it('501 elsewhere shows the warm-reminder modal with the server text and no cancel button', async () => {
    answer({ code: 501, error: 'Your company has disabled this.' });
    await rejection(request('/setting/index', { loading: false }));
    await seen('Warm reminder');
    await seen('Your company has disabled this.');
    expect(window.location.hash).toBe('#/pages/list-tab/index');
    const buttons = [...document.querySelectorAll('.adm-modal button')].map((b) => b.textContent);
    expect(buttons).toEqual(['OK']);
  });

  it('zh: the modal title is 温馨提示', async () => {
    setLanguage('zh');
    answer({ code: 501, error: '已停用' });
    await rejection(request('/setting/index', { loading: false }));
    await seen('温馨提示');
  });

  it('other codes toast object values joined by commas', async () => {
    answer({ code: 422, error: { email: 'is not a valid mailbox address', password: 'is required' } });
    const error = await rejection(request('/login/h5', { method: 'POST', loading: false }));
    expect(error.code).toBe(422);
    await seen('is not a valid mailbox address,is required');
  });

  it('other codes toast array items joined by commas', async () => {
    answer({ code: 429, errors: ['too many attempts', 'wait a minute'] });
    await rejection(request('/login/h5', { method: 'POST', loading: false }));
    await seen('too many attempts,wait a minute');
  });

  it('other codes without error text toast the words for their code (spec §8: system error)', async () => {
    answer({ code: 500 });
    await rejection(request('/mbox/index', { loading: false }));
    await seen('System error, please try again later.');
  });

  it('a refusal is toasted in the user’s language by its reason code, never in the server’s English', async () => {
    setLanguage('zh');
    answer({ code: 403, error: 'The old password is incorrect.', reason: 'password.old_wrong' });
    const error = await rejection(request('/sec/password', { method: 'POST', loading: false }));
    expect(error.message).toBe('当前密码不正确。');
    await seen('当前密码不正确。');
    expect(document.body.textContent).not.toContain('incorrect');
  });

  it('a non-2xx HTTP status is rejected silently', async () => {
    answer('nope', 502);
    const error = await rejection(request('/mbox/index', { loading: false }));
    expect(error.code).toBe(-502);
    await new Promise((r) => setTimeout(r, 50));
    expect(document.body.textContent).toBe('');
  });

  it('a network failure toasts "request failed, please retry"', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }));
    const error = await rejection(request('/mbox/index', { loading: false }));
    expect(error.code).toBe(0);
    await seen('request failed, please retry');
  });

  // The spinner and the message are one antd-mobile Toast: the spinner's close()
  // used to close the message that had replaced it, so the default call showed nothing.
  it('a network failure under the default spinner still shows its message, and the spinner is gone', async () => {
    let fail: (e: Error) => void = () => {};
    vi.stubGlobal('fetch', vi.fn(() => new Promise((_resolve, reject) => { fail = reject; })));
    const pending = rejection(request('/read/index', { data: { id: 1 } }));
    await seen('loading');
    // What the request's own timeout abort (or a dropped connection) does to fetch.
    fail(new DOMException('The operation was aborted.', 'AbortError'));
    const error = await pending;
    expect(error.code).toBe(0);
    await seen('request failed, please retry');
    // The spinner leaves (its exit can take a while on a loaded machine) and the message stays.
    await vi.waitFor(() => expect(document.body.textContent).not.toContain('loading'), { timeout: 5_000 });
    expect(document.body.textContent).toContain('request failed, please retry');
  });

  it('a malformed answer under the default spinner shows "data format error"', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>', { status: 200 })));
    const error = await rejection(request('/mbox/index'));
    expect(error.code).toBe(0);
    await seen('data format error');
    await new Promise((r) => setTimeout(r, 300));
    expect(document.body.textContent).toContain('data format error');
  });

  it('quiet calls show nothing', async () => {
    answer({ code: 500, error: 'boom' });
    await rejection(request('/mbox/index', { loading: false, quiet: true }));
    await new Promise((r) => setTimeout(r, 50));
    expect(document.body.textContent).toBe('');
  });
});

describe('errorText', () => {
  it('flattens nested values', () => {
    expect(errorText({ a: ['x', 'y'], b: 'z' })).toBe('x,y,z');
    expect(errorText(undefined)).toBe('');
  });
});

describe('API base (spec §7)', () => {
  it('is the page origin plus /h5 when served over HTTP, whatever the fallback', () => {
    expect(apiBaseFor({ protocol: 'https:', origin: 'https://mail.acme.com' }, 'https://other.example')).toBe('https://mail.acme.com/h5');
  });
  it('is the build-time fallback host for a page opened from a file', () => {
    expect(apiBaseFor({ protocol: 'file:', origin: 'null' }, 'https://mail.acme.com/')).toBe('https://mail.acme.com/h5');
  });
  it('without a fallback host, a file page keeps its own (unusable) origin rather than guessing one', () => {
    expect(apiBaseFor({ protocol: 'file:', origin: 'null' }, undefined)).toBe('null/h5');
  });
});
