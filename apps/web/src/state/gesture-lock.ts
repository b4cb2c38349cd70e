import { createStore, useStore } from './store';
import { sessionStore } from './session';

// The gesture lock's start-up part, in the first-screen bundle: is a lock set
// for the current mailbox on this device, and is it due. Drawing, hashing and
// checking a pattern live in gesture-pattern.ts, loaded with the lock pages.

/** What this device keeps per mailbox: a salted PBKDF2-SHA256 hash of the pattern, and when to lock. */
export interface GestureLock {
  salt: string;
  hash: string;
  iterations: number;
  /** Lock after the app has been away this many minutes; 0 locks on every start and return. */
  minutes: number;
}

export const gestureLockKey = (email: string) => `gestureLock:${email.toLowerCase()}`;

/**
 * The lock screen and the set-up page load on demand and do not import this
 * module (a module shared with lazy pages leaves the first-screen chunk as a
 * chunk of its own); they unlock by this window event instead.
 */
export const UNLOCK_EVENT = 'mailwing:gesture-unlock';

/** Returns within this long never lock, even at 0 minutes: a file picker or a glance at a notification. */
export const GRACE_MS = 10_000;

export function readGestureLock(email: string): GestureLock | null {
  if (!email) return null;
  try {
    const lock = JSON.parse(localStorage.getItem(gestureLockKey(email)) ?? 'null') as GestureLock | null;
    return lock && typeof lock.hash === 'string' && typeof lock.salt === 'string' ? lock : null;
  } catch {
    return null;
  }
}

/** Whether this device has a gesture lock for the mailbox (the settings tab shows on/off). */
export function gestureLockEnabled(email: string): boolean {
  return readGestureLock(email) !== null;
}

/** Whether coming back after `awayMs` away locks the app. */
export function lockDue(minutes: number, awayMs: number): boolean {
  return awayMs >= Math.max(minutes * 60_000, GRACE_MS);
}

function currentLock(): GestureLock | null {
  const { token, currentEmailName } = sessionStore.get();
  return token ? readGestureLock(currentEmailName) : null;
}

// Every start of the app with a lock set begins locked.
export const gestureLockStore = createStore({ locked: currentLock() !== null });

export function useGestureLocked(): boolean {
  return useStore(gestureLockStore, (s) => s.locked);
}

export function setGestureLocked(locked: boolean): void {
  if (gestureLockStore.get().locked !== locked) gestureLockStore.set({ locked });
}

let hiddenAt = 0;

/** The app went to the background (or its page was frozen): start counting. */
export function markAway(now = Date.now()): void {
  if (!hiddenAt) hiddenAt = now;
}

/** The app came back: lock when it was away long enough. */
export function markBack(now = Date.now()): void {
  const lock = currentLock();
  if (hiddenAt && lock && lockDue(lock.minutes, now - hiddenAt)) setGestureLocked(true);
  hiddenAt = 0;
}

if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'hidden' ? markAway() : markBack()));
  window.addEventListener('pagehide', () => markAway());
  // A page restored from the back-forward cache keeps its state, so it must lock itself.
  window.addEventListener('pageshow', (e) => e.persisted && markBack());
  window.addEventListener(UNLOCK_EVENT, () => setGestureLocked(false));
}

// A new session token comes from a password, a code or a sign-in link: whoever
// holds it has just proved who they are, so it unlocks (and logout ends it).
// Switching between bound mailboxes changes it too, but only pages behind the
// lock's guard can switch (router.tsx), so a locked app cannot switch itself open.
let lastToken = sessionStore.get().token;
sessionStore.subscribe(() => {
  const { token } = sessionStore.get();
  if (token === lastToken) return;
  lastToken = token;
  setGestureLocked(false);
});
