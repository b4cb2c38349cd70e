import { beforeEach, describe, expect, it } from 'vitest';
import type { MboxIndex } from '@mailwing/shared';
import { session, sessionStore } from './session';

const mbox = (inboxUnread: number): MboxIndex => ({
  system: [
    { mid: '0', name: 'Inbox', count: inboxUnread, total: 2000 },
    { mid: '1', name: 'Sent', count: 0, total: 3 },
  ],
  custom: [],
});

beforeEach(() => {
  session.clearAll();
  localStorage.clear();
  window.location.hash = '#/pages/list-tab/index';
});

describe('mailbox list (spec §4)', () => {
  it('puts the mailbox matching the current address first and selects it', () => {
    session.setCurrentEmailName('alice@demo.test');
    session.setMailList([{ email: 'bob@demo.test' }, { email: 'carol@other.test' }, { email: 'alice@demo.test' }]);
    const { mailList, nowEmail } = sessionStore.get();
    expect(mailList.map((b) => b.name)).toEqual(['alice', 'bob', 'carol']);
    expect(nowEmail).toEqual({ email: 'alice@demo.test', name: 'alice' });
    expect(JSON.parse(localStorage.getItem('mailList') ?? 'null')).toEqual(mailList);
    expect(JSON.parse(localStorage.getItem('nowEmail') ?? 'null')).toEqual(nowEmail);
  });

  it('keeps the order and selects the first entry when none matches', () => {
    session.setCurrentEmailName('zed@demo.test');
    session.setMailList([{ email: 'bob@demo.test' }, { email: 'alice@demo.test' }]);
    expect(sessionStore.get().mailList.map((b) => b.name)).toEqual(['bob', 'alice']);
    expect(sessionStore.get().nowEmail?.email).toBe('bob@demo.test');
  });

  it('selects nothing for an empty list', () => {
    session.setMailList([]);
    expect(sessionStore.get().nowEmail).toBeNull();
  });
});

describe('inbox badge (spec §4, §9)', () => {
  it('shows the unread count when above 0', () => {
    session.setMbox(mbox(1));
    expect(sessionStore.get().tabBadge).toBe('1');
    expect(JSON.parse(localStorage.getItem('mbox') ?? 'null')).toEqual(mbox(1));
  });

  it('removes the badge at 0', () => {
    session.setMbox(mbox(5));
    session.setMbox(mbox(0));
    expect(sessionStore.get().tabBadge).toBeNull();
  });

  it('caps the badge at 999', () => {
    session.setMbox(mbox(999));
    expect(sessionStore.get().tabBadge).toBe('999');
    session.setMbox(mbox(1000));
    expect(sessionStore.get().tabBadge).toBe('999+');
  });
});

describe('selected contacts', () => {
  it('clearing them also resets the select type', () => {
    session.setSelectedContacts([{ name: 'Bob', email: 'bob@demo.test' }], 'to');
    expect(sessionStore.get().addressSelectType).toBe('to');
    session.clearSelectedContacts();
    expect(sessionStore.get().selectedContacts).toEqual([]);
    expect(sessionStore.get().addressSelectType).toBe('');
    expect(localStorage.getItem('addressSelectType')).toBe('""');
    expect(localStorage.getItem('selectedContacts')).toBe('[]');
  });
});

describe('logout (spec §4)', () => {
  it('clears token, current mailbox name and selected mailbox from memory and storage, then goes to login', () => {
    session.setToken('tok');
    session.setCurrentEmailName('alice@demo.test');
    session.setMailList([{ email: 'alice@demo.test' }]);
    session.setMbox(mbox(3));
    session.logout();
    const state = sessionStore.get();
    expect(state.token).toBe('');
    expect(state.currentEmailName).toBe('');
    expect(state.nowEmail).toBeNull();
    for (const key of ['token', 'currentEmailName', 'nowEmail']) expect(localStorage.getItem(key)).toBeNull();
    // Only those three: the rest of the session is left as it was.
    expect(state.mailList).toHaveLength(1);
    expect(window.location.hash).toBe('#/pages/login/index');
  });
});
