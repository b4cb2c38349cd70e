import { useEffect } from 'react';
import { createStore, useStore } from './store';

/** How many recent searches are kept. */
export const HISTORY_MAX = 10;

/** The list with q first, a repeat (ignoring case and spaces) moved up rather than added twice. */
export function withSearch(list: readonly string[], q: string, max = HISTORY_MAX): string[] {
  const tidy = (x: string) => x.trim().replace(/\s+/g, ' ');
  const query = tidy(q);
  if (!query) return [...list];
  const key = query.toLowerCase();
  return [query, ...list.filter((x) => tidy(x).toLowerCase() !== key)].slice(0, max);
}

// Kept per mailbox, so one account's searches never show in another's.
const keyOf = (owner: string) => `searchHistory:${owner.toLowerCase()}`;

function read(owner: string): string[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(keyOf(owner)) ?? '[]');
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string').slice(0, HISTORY_MAX) : [];
  } catch {
    return [];
  }
}

function write(owner: string, list: readonly string[]): void {
  try {
    if (list.length === 0) localStorage.removeItem(keyOf(owner));
    else localStorage.setItem(keyOf(owner), JSON.stringify(list));
  } catch {
    // Storage full or disabled: history is a convenience, the search still runs.
  }
}

const store = createStore<{ owner: string; list: readonly string[] }>({ owner: '', list: [] });

function load(owner: string): readonly string[] {
  if (store.get().owner !== owner) store.set({ owner, list: read(owner) });
  return store.get().list;
}

/** Recent searches of one mailbox, newest first, in localStorage. */
export const searchHistory = {
  list: (owner: string): readonly string[] => load(owner),
  add(owner: string, q: string): void {
    const list = withSearch(load(owner), q);
    write(owner, list);
    store.set({ owner, list });
  },
  remove(owner: string, q: string): void {
    const list = load(owner).filter((x) => x !== q);
    write(owner, list);
    store.set({ owner, list });
  },
  clear(owner: string): void {
    write(owner, []);
    store.set({ owner, list: [] });
  },
};

const NONE: readonly string[] = [];

export function useSearchHistory(owner: string): readonly string[] {
  useEffect(() => {
    load(owner);
  }, [owner]);
  return useStore(store, (s) => (s.owner === owner ? s.list : NONE));
}
