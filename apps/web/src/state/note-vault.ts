import { NOTE_IDLE_LOCK_MS } from '@mailwing/shared';

// Opened locked notes live only here, in memory: the key, the proof and the plaintext.
// After NOTE_IDLE_LOCK_MS without use every one is forgotten, so the note is locked again
// and its password must be typed anew. Time is compared, not counted by a timer, so a
// phone that slept through the deadline locks on the first check after it wakes.

export interface OpenNote {
  key: unknown;
  proof: string;
  salt: string;
  iterations: number;
  kdf: string;
  title: string;
  html: string;
  /** The note's words, for searching it while it is open. */
  text: string;
}

export function createVault({ idleMs = NOTE_IDLE_LOCK_MS, now = () => Date.now() }: { idleMs?: number; now?: () => number } = {}) {
  const open = new Map<string, OpenNote>();
  const listeners = new Set<() => void>();
  let last = now();
  const emit = () => listeners.forEach((fn) => fn());
  const vault = {
    /** Locks everything when the idle time has passed; true if it did. */
    check(): boolean {
      if (open.size === 0 || now() - last < idleMs) return false;
      open.clear();
      emit();
      return true;
    },
    touch(): void {
      if (!vault.check()) last = now();
    },
    put(id: string, note: OpenNote): void {
      vault.check();
      open.set(id, note);
      last = now();
      emit();
    },
    get(id: string): OpenNote | undefined {
      vault.check();
      return open.get(id);
    },
    lock(id?: string): void {
      if (id === undefined) open.clear();
      else open.delete(id);
      emit();
    },
    /** Open locked notes whose title or words contain the query (the server cannot search them). */
    search(q: string): { id: string; title: string; text: string }[] {
      vault.check();
      const needle = q.trim().toLowerCase();
      if (!needle) return [];
      return [...open.entries()]
        .filter(([, n]) => n.title.toLowerCase().includes(needle) || n.text.toLowerCase().includes(needle))
        .map(([id, n]) => ({ id, title: n.title, text: n.text }));
    },
    subscribe(fn: () => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  return vault;
}

export type NoteVault = ReturnType<typeof createVault>;
export const noteVault = createVault();
