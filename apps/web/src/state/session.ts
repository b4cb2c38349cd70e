import { badgeText, SystemFolder, type MboxIndex } from '@mailwing/shared';
import { createStore, useStore } from './store';

/**
 * A bound mailbox. `name` is the part of the address before the at-sign (spec
 * §3). `token` is that mailbox's own session, so switching to it needs no
 * password; absent when we hold none (it is fetched again on switching).
 */
export interface MailboxEntry {
  email: string;
  name: string;
  token?: string;
}

export interface Contact {
  name: string;
  email: string;
}

export interface SessionState {
  token: string;
  currentEmailName: string;
  nowEmail: MailboxEntry | null;
  mailList: MailboxEntry[];
  mbox: MboxIndex | null;
  addressSelectType: string;
  selectedContacts: Contact[];
  /** The folder the Inbox tab shows; dir-list changes it. */
  currentFolder: string;
  /** The inbox tab's badge text, derived from mbox; null hides the badge. */
  tabBadge: string | null;
}

type Persisted = Exclude<keyof SessionState, 'tabBadge'>;

const EMPTY: SessionState = {
  token: '',
  currentEmailName: '',
  nowEmail: null,
  mailList: [],
  mbox: null,
  addressSelectType: '',
  selectedContacts: [],
  currentFolder: SystemFolder.Inbox,
  tabBadge: null,
};

// One localStorage key per field, like the original app's storage, so a field
// can be cleared on its own (logout clears three of them).
const PERSISTED = Object.keys(EMPTY).filter((k) => k !== 'tabBadge') as Persisted[];
export const LOGIN_ROUTE = '#/pages/login/index';

function read<K extends Persisted>(key: K): SessionState[K] {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? EMPTY[key] : (JSON.parse(raw) as SessionState[K]);
  } catch {
    return EMPTY[key];
  }
}

function write(patch: Partial<SessionState>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'tabBadge') continue;
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage full or disabled (private mode): the session still works in memory.
    }
  }
}

function remove(keys: Persisted[]): void {
  for (const key of keys) localStorage.removeItem(key);
}

function inboxBadge(mbox: MboxIndex | null): string | null {
  const inbox = mbox?.system.find((f) => f.mid === SystemFolder.Inbox);
  return badgeText(inbox?.count ?? 0);
}

function load(): SessionState {
  const state = { ...EMPTY };
  for (const key of PERSISTED) (state as Record<Persisted, unknown>)[key] = read(key);
  state.tabBadge = inboxBadge(state.mbox);
  return state;
}

export const sessionStore = createStore<SessionState>(load());

function save(patch: Partial<SessionState>): void {
  write(patch);
  sessionStore.set(patch);
}

export function localPart(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at);
}

/** Addresses compare without case (the server stores them lower-cased). */
export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const same = sameAddress;

function entry(email: string, token: string | undefined): MailboxEntry {
  return token ? { email, name: localPart(email), token } : { email, name: localPart(email) };
}

/** The tokens we hold, by lower-cased address: each entry's own, and the session's for the current mailbox. */
function heldTokens(s: SessionState): Map<string, string> {
  const held = new Map<string, string>();
  for (const b of s.mailList) if (b.token) held.set(b.email.toLowerCase(), b.token);
  if (s.token && s.currentEmailName) held.set(s.currentEmailName.toLowerCase(), s.token);
  return held;
}

/**
 * Spec §4's order: the current mailbox first. The exact address wins; failing
 * that, the first whose name is the current address's local part (the spec's
 * rule, which alone cannot tell alice@a.test from alice@b.test).
 */
function currentFirst(list: MailboxEntry[], currentEmailName: string): MailboxEntry[] {
  const out = [...list];
  let mine = out.findIndex((b) => same(b.email, currentEmailName));
  if (mine < 0) mine = out.findIndex((b) => b.name === localPart(currentEmailName));
  if (mine > 0) out.unshift(...out.splice(mine, 1));
  return out;
}

/** Per-mailbox state that must not outlive a switch to another mailbox. */
const PER_MAILBOX: Partial<SessionState> = {
  mbox: null,
  tabBadge: null,
  currentFolder: SystemFolder.Inbox,
  selectedContacts: [],
  addressSelectType: '',
};

export const session = {
  get: () => sessionStore.get(),

  setToken(token: string): void {
    save({ token });
  },

  setCurrentEmailName(currentEmailName: string): void {
    save({ currentEmailName });
  },

  /**
   * Spec §4: the mailbox whose name matches the local part of the current
   * address goes first; the list is stored; its first entry becomes nowEmail.
   */
  setMailList(boxes: ReadonlyArray<{ email: string; token?: string }>): void {
    const s = sessionStore.get();
    // The server's list names the mailboxes; the tokens are the ones we hold.
    const held = heldTokens(s);
    const list = currentFirst(boxes.map((b) => entry(b.email, b.token || held.get(b.email.toLowerCase()))), s.currentEmailName);
    save({ mailList: list, nowEmail: list[0] ?? null });
  },

  /**
   * A mailbox just bound (or logged in to for binding) with its own token. It
   * joins the list after the current one, or has its token renewed; the
   * current mailbox stays current.
   */
  addMailbox({ email, token }: { email: string; token: string }): void {
    const s = sessionStore.get();
    const known = s.mailList.some((b) => same(b.email, email));
    const list = known
      ? s.mailList.map((b) => (same(b.email, email) ? entry(b.email, token) : b))
      : [...s.mailList, entry(email, token)];
    if (s.token && s.currentEmailName && !list.some((b) => same(b.email, s.currentEmailName))) {
      list.unshift(entry(s.currentEmailName, s.token));
    }
    const ordered = currentFirst(list, s.currentEmailName);
    save({ mailList: ordered, nowEmail: ordered[0] ?? null });
  },

  /**
   * Makes a bound mailbox the current one, at once: its token becomes the
   * session's (the live stream follows the token), it goes first in the list,
   * and the previous mailbox's folders, folder choice and chosen contacts are
   * dropped. `token` is a fresh one when the held one was missing or refused.
   * Returns false when there is no token to switch with. The caller reloads
   * the folder data (refreshMbox).
   */
  switchMailbox(email: string, token?: string): boolean {
    const s = sessionStore.get();
    const held = heldTokens(s);
    const next = token || held.get(email.toLowerCase());
    if (!next) return false;
    const address = s.mailList.find((b) => same(b.email, email))?.email ?? email;
    // Every entry keeps its own token: the one we leave holds the session's.
    let list = s.mailList.map((b) => entry(b.email, held.get(b.email.toLowerCase())));
    if (!list.some((b) => same(b.email, address))) list.push(entry(address, next));
    if (s.currentEmailName && !list.some((b) => same(b.email, s.currentEmailName))) list.push(entry(s.currentEmailName, s.token));
    list = currentFirst(list.map((b) => (same(b.email, address) ? entry(b.email, next) : b)), address);
    save({ ...PER_MAILBOX, token: next, currentEmailName: address, mailList: list, nowEmail: list[0] ?? null });
    return true;
  },

  /** Drops a bound mailbox and its token. Spec §5: never the current one (returns false). */
  removeMailbox(email: string): boolean {
    const s = sessionStore.get();
    if (same(email, s.currentEmailName)) return false;
    const list = s.mailList.filter((b) => !same(b.email, email));
    save({ mailList: list, nowEmail: list[0] ?? null });
    return true;
  },

  /** Spec §4: the inbox tab badge shows the inbox unread count when above 0, else none. */
  setMbox(mbox: MboxIndex): void {
    save({ mbox, tabBadge: inboxBadge(mbox) });
  },

  setCurrentFolder(currentFolder: string): void {
    save({ currentFolder });
  },

  setSelectedContacts(selectedContacts: Contact[], addressSelectType: string): void {
    save({ selectedContacts, addressSelectType });
  },

  /** Spec §4: clearing the selected contacts also resets the select type. */
  clearSelectedContacts(): void {
    save({ selectedContacts: [], addressSelectType: '' });
  },

  /**
   * Password-free entry (spec §1) starts from clean storage. The language
   * choice is a device preference, not session data, so it is kept.
   */
  clearAll(): void {
    remove(PERSISTED);
    sessionStore.set({ ...EMPTY });
  },

  /**
   * Spec §4: logging out clears the token, the current mailbox name and the
   * selected mailbox from memory and storage, then restarts at the login page.
   */
  logout(): void {
    remove(['token', 'currentEmailName', 'nowEmail']);
    // The bound mailboxes stay listed, but their tokens go with the session:
    // whoever uses this device next must not reach them without a password.
    const mailList = sessionStore.get().mailList.map((b) => entry(b.email, undefined));
    write({ mailList });
    sessionStore.set({ token: '', currentEmailName: '', nowEmail: null, mailList });
    // replace(): the back button must not return into a page of the old session.
    window.location.replace(LOGIN_ROUTE);
  },
};

export function useSession<S>(select: (state: SessionState) => S): S {
  return useStore(sessionStore, select);
}
