import { badgeText, SystemFolder, type MboxIndex } from '@mailwing/shared';
import { createStore, useStore } from './store';

/** A bound mailbox. `name` is the part of the address before the at-sign (spec §3). */
export interface MailboxEntry {
  email: string;
  name: string;
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
  setMailList(boxes: ReadonlyArray<{ email: string }>): void {
    const wanted = localPart(sessionStore.get().currentEmailName);
    const list = boxes.map((b) => ({ email: b.email, name: localPart(b.email) }));
    const mine = list.findIndex((b) => b.name === wanted);
    if (mine > 0) list.unshift(...list.splice(mine, 1));
    save({ mailList: list, nowEmail: list[0] ?? null });
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
    sessionStore.set({ token: '', currentEmailName: '', nowEmail: null });
    // replace(): the back button must not return into a page of the old session.
    window.location.replace(LOGIN_ROUTE);
  },
};

export function useSession<S>(select: (state: SessionState) => S): S {
  return useStore(sessionStore, select);
}
