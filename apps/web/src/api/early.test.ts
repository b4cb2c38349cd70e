import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_SIZE_DEFAULT, SystemFolder } from '@mailwing/shared';
import { session } from '../state/session';
import { loadSettings } from './account';
import { EARLY_PAGE_SIZE, earlyUrls } from './early';
import { callKey, EARLY_MAX_AGE_MS, takeEarly } from './early-take';
import { api } from './endpoints';

// early.ts restates a few facts because it may import nothing (see its header); these
// tests hold them to their owners, and show that the app takes an early answer once.

const here = { protocol: 'http:', origin: 'http://localhost:3000', hash: '#/pages/list-tab/index' };
const envelope = (data: unknown) => new Response(JSON.stringify({ code: 200, data }), { headers: { 'content-type': 'application/json' } });

afterEach(() => {
  delete window.__mwEarly;
  localStorage.clear();
});

describe('early calls', () => {
  it('uses the Inbox page size and the session storage keys of their owners', () => {
    expect(EARLY_PAGE_SIZE).toBe(PAGE_SIZE_DEFAULT);
    session.setCurrentFolder(SystemFolder.Sent);
    expect(JSON.parse(localStorage.getItem('currentFolder')!)).toBe(SystemFolder.Sent);
  });

  it('asks only for a signed-in Inbox over http(s)', () => {
    expect(earlyUrls(here, 'tok', '0')).toHaveLength(3);
    expect(earlyUrls({ ...here, hash: '' }, 'tok', '0')).toHaveLength(3);
    expect(earlyUrls(here, '', '0')).toEqual([]);
    expect(earlyUrls({ ...here, hash: '#/pages/read-mail/index?mid=5' }, 'tok', '0')).toEqual([]);
    expect(earlyUrls({ ...here, protocol: 'file:' }, 'tok', '0')).toEqual([]);
    // A stored folder that is not an id falls back to the Inbox.
    expect(earlyUrls(here, 'tok', 'x&y')[0]).toContain('mid=0&');
  });

  it('are the very calls the Inbox makes, and the app takes each answer once instead of asking', async () => {
    session.setToken('tok-1');
    expect(JSON.parse(localStorage.getItem('token')!)).toBe('tok-1');
    const token = 'tok-1';
    const urls = earlyUrls({ ...here, origin: window.location.origin }, token, SystemFolder.Inbox);
    const answers: Record<string, unknown> = {
      '/h5/mail/list': { list: [], total: 0 },
      '/h5/mbox/index': { system: [], custom: [] },
      '/h5/setting/index': { language: 'en' },
    };
    window.__mwEarly = urls.map((url) => ({ url, at: Date.now(), response: Promise.resolve(envelope(answers[new URL(url).pathname])) }));
    const asked: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input: RequestInfo | URL) => {
      asked.push(String(input));
      return Promise.resolve(envelope(null));
    };
    try {
      await expect(api.mailList(SystemFolder.Inbox, 1), 'mail/list').resolves.toEqual(answers['/h5/mail/list']);
      await expect(api.mboxIndex(false)).resolves.toEqual(answers['/h5/mbox/index']);
      await expect(loadSettings()).resolves.toEqual(answers['/h5/setting/index']);
      expect(asked).toEqual([]);
      expect(window.__mwEarly).toEqual([]);
      // Taken once: the next list call goes to the network.
      await api.mailList(SystemFolder.Inbox, 1);
      expect(asked).toHaveLength(1);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('drops an answer that is too old, and one whose request was aborted', async () => {
    const url = 'http://localhost/h5/mbox/index?t=a';
    window.__mwEarly = [{ url, at: 0, response: Promise.resolve(envelope({})) }];
    expect(takeEarly(url, new AbortController().signal, EARLY_MAX_AGE_MS + 1)).toBeUndefined();
    expect(window.__mwEarly).toEqual([]);

    window.__mwEarly = [{ url, at: 0, response: new Promise<Response>(() => undefined) }];
    const controller = new AbortController();
    const taken = takeEarly(url, controller.signal, 0)!;
    controller.abort();
    await expect(taken).rejects.toThrow('aborted');
  });

  it('matches the same call whatever the order of its parameters', () => {
    expect(callKey('http://h/h5/mail/list?page=1&mid=0&t=x')).toBe(callKey('http://h/h5/mail/list?mid=0&t=x&page=1'));
    expect(callKey('http://h/h5/mail/list?mid=0&t=x')).not.toBe(callKey('http://h/h5/mail/list?mid=0&t=y'));
  });
});
