import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '@mailwing/shared';
import { getLanguage, setLanguage } from '../i18n';
import { session } from './session';
import { followAccount, putSettings, reloadSettings, settingsStore } from './settings';

const settings = (email: string, language: 'zh' | 'en' | null): Settings => ({
  email, nickname: email, avatar: null, company: 'Demo Co', role: 'user', quotaBytes: 1, usedBytes: 0, language,
  notify: { newMail: true, quietEnabled: false, quietStart: '22:00', quietEnd: '07:00', timeZone: 'UTC', folders: ['0'] },
  secverify: false, wechatBound: false,
});
const byToken: Record<string, Settings> = {};

beforeEach(() => {
  session.clearAll();
  setLanguage('en');
  vi.stubGlobal('fetch', vi.fn(async (input: string) => {
    const t = new URL(input).searchParams.get('t') ?? '';
    return new Response(JSON.stringify({ code: 200, data: byToken[t] }));
  }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('account settings', () => {
  it('apply the account’s language once a session starts, and follow a switch to another mailbox', async () => {
    byToken.tA = settings('alice@demo.test', 'zh');
    byToken.tB = settings('bob@demo.test', 'en');
    followAccount();
    session.setToken('tA');
    await vi.waitFor(() => expect(getLanguage()).toBe('zh'));
    expect(settingsStore.get().settings?.email).toBe('alice@demo.test');
    session.setToken('tB');
    await vi.waitFor(() => expect(getLanguage()).toBe('en'));
  });

  it('do not undo a choice made on this device when they are loaded again', async () => {
    byToken.tC = settings('carol@demo.test', 'zh');
    session.setToken('tC');
    await reloadSettings();
    expect(getLanguage()).toBe('zh');
    setLanguage('en');
    await reloadSettings();
    expect(getLanguage()).toBe('en');
  });

  it('keep the device’s language when the account has none', async () => {
    byToken.tD = settings('dan@demo.test', null);
    session.setToken('tD');
    expect(await reloadSettings()).toBe(true);
    expect(getLanguage()).toBe('en');
  });

  it('a load that started before a save does not bring back the older values', async () => {
    byToken.tE = settings('erin@demo.test', null);
    session.setToken('tE');
    const load = reloadSettings();
    putSettings({ ...settings('erin@demo.test', null), nickname: 'Erin saved' });
    expect(await load).toBe(false);
    expect(settingsStore.get().settings?.nickname).toBe('Erin saved');
  });
});
