import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session, sessionStore } from '../state/session';
import { switchTo } from './mailboxes';

// fetch is the boundary: a stand-in server that knows which tokens are alive.
const alive = new Set<string>();
let calls: URL[] = [];
const ok = (data: unknown) => new Response(JSON.stringify({ code: 200, data }));
const mbox = { system: [{ mid: '0', name: 'Inbox', count: 2, total: 5 }], custom: [] };

beforeEach(() => {
  calls = [];
  alive.clear();
  session.clearAll();
  localStorage.clear();
  window.location.hash = '#/pages/mbox/mbox-list';
  vi.stubGlobal('fetch', vi.fn(async (input: string) => {
    const url = new URL(input);
    calls.push(url);
    const t = url.searchParams.get('t') ?? '';
    if (!alive.has(t)) return new Response(JSON.stringify({ code: 401, error: 'not logged in' }));
    if (url.pathname === '/h5/login/check') return ok({});
    if (url.pathname === '/h5/login/app-email-select') {
      if (url.searchParams.get('email') === 'zed@demo.test') return new Response(JSON.stringify({ code: 403, error: 'not bound' }));
      alive.add('fresh');
      return ok({ token: 'fresh', email: url.searchParams.get('email') });
    }
    if (url.pathname === '/h5/mbox/index') return ok(mbox);
    return new Response(JSON.stringify({ code: 404, error: 'no route' }));
  }));
  session.setToken('tA');
  session.setCurrentEmailName('alice@demo.test');
  session.setMailList([{ email: 'alice@demo.test' }]);
  alive.add('tA');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const paths = () => calls.map((u) => `${u.pathname} t=${u.searchParams.get('t')}`);

describe('switching mailbox (spec §6)', () => {
  it('uses the token it holds when it still works, then loads that mailbox’s folders', async () => {
    session.addMailbox({ email: 'bob@demo.test', token: 'tB' });
    alive.add('tB');
    expect(await switchTo('bob@demo.test')).toBe(true);
    expect(paths()).toEqual(['/h5/login/check t=tB', '/h5/mbox/index t=tB']);
    expect(sessionStore.get().currentEmailName).toBe('bob@demo.test');
    expect(sessionStore.get().tabBadge).toBe('2');
  });

  it('gets a fresh token when the held one is refused, without logging anyone out', async () => {
    session.addMailbox({ email: 'bob@demo.test', token: 'expired' });
    expect(await switchTo('bob@demo.test')).toBe(true);
    expect(paths()).toEqual(['/h5/login/check t=expired', '/h5/login/app-email-select t=tA', '/h5/mbox/index t=fresh']);
    expect(sessionStore.get().token).toBe('fresh');
    expect(sessionStore.get().mailList.map((b) => [b.email, b.token])).toEqual([['bob@demo.test', 'fresh'], ['alice@demo.test', 'tA']]);
    expect(window.location.hash).toBe('#/pages/mbox/mbox-list');
  });

  it('asks for a token straight away when it holds none', async () => {
    session.setMailList([{ email: 'alice@demo.test' }, { email: 'bob@demo.test' }]);
    expect(await switchTo('bob@demo.test')).toBe(true);
    expect(paths()[0]).toBe('/h5/login/app-email-select t=tA');
  });

  it('stays in the current mailbox when no token can be had', async () => {
    session.setMailList([{ email: 'alice@demo.test' }, { email: 'zed@demo.test' }]);
    expect(await switchTo('zed@demo.test')).toBe(false);
    expect(sessionStore.get().currentEmailName).toBe('alice@demo.test');
    expect(sessionStore.get().token).toBe('tA');
  });

  it('joins a switch already under way instead of starting another', async () => {
    session.addMailbox({ email: 'bob@demo.test', token: 'tB' });
    alive.add('tB');
    const [a, b] = await Promise.all([switchTo('bob@demo.test'), switchTo('BOB@demo.test')]);
    expect([a, b]).toEqual([true, true]);
    expect(paths().filter((p) => p.startsWith('/h5/login/check'))).toHaveLength(1);
  });
});
