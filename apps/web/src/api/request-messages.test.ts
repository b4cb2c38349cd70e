import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Modal, Toast } from 'antd-mobile';
import { setLanguage } from '../i18n';
import { session, sessionStore } from '../state/session';
import { request, type ApiError } from './request';

// Issue 15, spec §8's messages that were missing: "system busy, please retry" for an
// overloaded server (HTTP 503/429), "not logged in" (and the login page) for a call
// without a session. fetch is the browser boundary; everything of ours runs.

function answer(body: unknown, status = 200): void {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })));
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

describe('system busy', () => {
  it('says "system busy, please retry" for a 503, in the user language', async () => {
    session.setToken('tok');
    answer('<html>Service Unavailable</html>', 503);
    const error = await rejection(request('/mail/list', { loading: false }));
    expect(error.reason).toBe('server.busy');
    expect(error.message).toBe('System busy, please retry.');
    await seen('System busy, please retry.');
    Toast.clear();
    setLanguage('zh');
    answer('', 429);
    expect((await rejection(request('/mail/list', { loading: false }))).message).toBe('系统繁忙，请重试。');
    await seen('系统繁忙，请重试。');
  });

  it('stays quiet for background calls, and other HTTP errors stay silent (spec §8)', async () => {
    answer('', 503);
    await rejection(request('/mail/list', { loading: false, quiet: true }));
    answer('', 502);
    expect((await rejection(request('/mail/list', { loading: false }))).code).toBe(-502);
    await new Promise((r) => setTimeout(r, 50));
    expect(document.body.textContent).toBe('');
  });
});

describe('not logged in', () => {
  it('a call without a session says so and goes to the login page', async () => {
    answer({ code: 401, error: 'Not logged in', reason: 'session.missing' });
    const error = await rejection(request('/mbox/index', { loading: false }));
    expect(error.code).toBe(401);
    await seen('Not logged in. Please log in.');
    expect(window.location.hash).toBe('#/pages/login/index');
    expect(sessionStore.get().token).toBe('');
  });

  it('a wrong password at login is not "not logged in" and stays on the page', async () => {
    window.location.hash = '#/pages/login/index?x=1';
    answer({ code: 401, error: 'Wrong email or password', reason: 'login.bad_credentials' });
    await rejection(request('/login/h5', { method: 'POST', data: { email: 'a@b.test', password: 'x' }, loading: false }));
    expect(window.location.hash).toBe('#/pages/login/index?x=1');
  });
});
