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

describe('several mailboxes, each with its own token (spec §3, §4, §6)', () => {
  const loggedIn = (email: string, token: string) => {
    session.setToken(token);
    session.setCurrentEmailName(email);
    session.setMailList([{ email }]);
  };

  it('keeps the tokens it holds when the server lists the mailboxes again', () => {
    loggedIn('alice@demo.test', 'tA');
    session.addMailbox({ email: 'bob@demo.test', token: 'tB' });
    session.setMailList([{ email: 'bob@demo.test' }, { email: 'carol@demo.test' }, { email: 'alice@demo.test' }]);
    expect(sessionStore.get().mailList).toEqual([
      { email: 'alice@demo.test', name: 'alice', token: 'tA' },
      { email: 'bob@demo.test', name: 'bob', token: 'tB' },
      { email: 'carol@demo.test', name: 'carol' },
    ]);
    expect(sessionStore.get().nowEmail?.email).toBe('alice@demo.test');
  });

  it('prefers the exact address over a mailbox of the same name in another domain', () => {
    session.setCurrentEmailName('alice@b.test');
    session.setMailList([{ email: 'alice@a.test' }, { email: 'alice@b.test' }]);
    expect(sessionStore.get().nowEmail?.email).toBe('alice@b.test');
  });

  it('adds a bound mailbox after the current one without switching to it', () => {
    loggedIn('alice@demo.test', 'tA');
    session.addMailbox({ email: 'bob@demo.test', token: 'tB' });
    const s = sessionStore.get();
    expect(s.mailList.map((b) => b.email)).toEqual(['alice@demo.test', 'bob@demo.test']);
    expect(s.token).toBe('tA');
    expect(s.currentEmailName).toBe('alice@demo.test');
    expect(s.nowEmail?.email).toBe('alice@demo.test');
    expect(JSON.parse(localStorage.getItem('mailList') ?? '[]')[1]).toEqual({ email: 'bob@demo.test', name: 'bob', token: 'tB' });
  });

  it('renews the token of a mailbox added again', () => {
    loggedIn('alice@demo.test', 'tA');
    session.addMailbox({ email: 'bob@demo.test', token: 'tB' });
    session.addMailbox({ email: 'Bob@demo.test', token: 'tB2' });
    expect(sessionStore.get().mailList).toHaveLength(2);
    expect(sessionStore.get().mailList[1]?.token).toBe('tB2');
  });

  it('switches at once: token, current name, order, selection; per-mailbox state is cleared', () => {
    loggedIn('alice@demo.test', 'tA');
    session.addMailbox({ email: 'bob@demo.test', token: 'tB' });
    session.setMbox(mbox(4));
    session.setCurrentFolder('7');
    session.setSelectedContacts([{ name: 'Carol', email: 'carol@demo.test' }], 'to');
    expect(session.switchMailbox('bob@demo.test')).toBe(true);
    const s = sessionStore.get();
    expect(s.token).toBe('tB');
    expect(s.currentEmailName).toBe('bob@demo.test');
    expect(s.mailList).toEqual([
      { email: 'bob@demo.test', name: 'bob', token: 'tB' },
      { email: 'alice@demo.test', name: 'alice', token: 'tA' },
    ]);
    expect(s.nowEmail?.email).toBe('bob@demo.test');
    expect(s.mbox).toBeNull();
    expect(s.tabBadge).toBeNull();
    expect(s.currentFolder).toBe('0');
    expect(s.selectedContacts).toEqual([]);
    expect(s.addressSelectType).toBe('');
    expect(localStorage.getItem('token')).toBe('"tB"');
    expect(localStorage.getItem('currentEmailName')).toBe('"bob@demo.test"');
    // And back again with the token kept for the first mailbox.
    expect(session.switchMailbox('alice@demo.test')).toBe(true);
    expect(sessionStore.get().token).toBe('tA');
    expect(sessionStore.get().mailList.map((b) => b.token)).toEqual(['tA', 'tB']);
  });

  it('switches with a fresh token when none is held, and refuses without one', () => {
    loggedIn('alice@demo.test', 'tA');
    session.setMailList([{ email: 'alice@demo.test' }, { email: 'bob@demo.test' }]);
    expect(session.switchMailbox('bob@demo.test')).toBe(false);
    expect(sessionStore.get().token).toBe('tA');
    expect(session.switchMailbox('bob@demo.test', 'fresh')).toBe(true);
    expect(sessionStore.get().token).toBe('fresh');
    expect(sessionStore.get().mailList[0]).toEqual({ email: 'bob@demo.test', name: 'bob', token: 'fresh' });
  });

  it('removes a bound mailbox but never the current one (spec §5)', () => {
    loggedIn('alice@demo.test', 'tA');
    session.addMailbox({ email: 'bob@demo.test', token: 'tB' });
    expect(session.removeMailbox('alice@demo.test')).toBe(false);
    expect(sessionStore.get().mailList).toHaveLength(2);
    expect(session.removeMailbox('bob@demo.test')).toBe(true);
    expect(sessionStore.get().mailList.map((b) => b.email)).toEqual(['alice@demo.test']);
    expect(localStorage.getItem('mailList')).not.toContain('tB');
  });

  it('logout keeps the list but drops every token', () => {
    loggedIn('alice@demo.test', 'tA');
    session.addMailbox({ email: 'bob@demo.test', token: 'tB' });
    session.logout();
    expect(sessionStore.get().mailList).toEqual([
      { email: 'alice@demo.test', name: 'alice' },
      { email: 'bob@demo.test', name: 'bob' },
    ]);
    expect(localStorage.getItem('mailList')).not.toContain('tB');
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
