import type { GestureLock } from './gesture-lock';

// The gesture lock's drawing rules, hashing, storage and failed-try count.
// Loaded only with the lock pages, never with the first screen. Importing
// gesture-lock.ts from here would move it out of the first-screen chunk into
// a chunk of its own, so its key and unlock event are repeated here (the test
// checks they agree).

export const gestureLockKey = (email: string) => `gestureLock:${email.toLowerCase()}`;
export const UNLOCK_EVENT = 'mailwing:gesture-unlock';

export function readGestureLock(email: string): GestureLock | null {
  if (!email) return null;
  try {
    const lock = JSON.parse(localStorage.getItem(gestureLockKey(email)) ?? 'null') as GestureLock | null;
    return lock && typeof lock.hash === 'string' && typeof lock.salt === 'string' ? lock : null;
  } catch {
    return null;
  }
}

/** Tells the first-screen guard the app is unlocked (see gesture-lock.ts). */
export function announceUnlock(): void {
  window.dispatchEvent(new Event(UNLOCK_EVENT));
}

/** A pattern is the order of the points touched on the 3×3 pad, 0 top-left to 8 bottom-right. */
export type Pattern = readonly number[];

export const MIN_POINTS = 4;
export const MAX_TRIES = 5;
export const LOCK_MINUTES = [0, 1, 5, 15, 30] as const;
export const PBKDF2_ITERATIONS = 150_000;

/** The point a straight line from a to b passes through, if it crosses one (0→2 crosses 1, 0→8 crosses 4). */
export function between(a: number, b: number): number | null {
  const r = Math.floor(a / 3) + Math.floor(b / 3);
  const c = (a % 3) + (b % 3);
  if (r % 2 !== 0 || c % 2 !== 0) return null;
  const mid = (r / 2) * 3 + c / 2;
  return mid === a || mid === b ? null : mid;
}

/**
 * Adds a touched point. A point already used is ignored; a point the line
 * from the last one jumps over, not yet used, is taken first (as phones do),
 * so a line never crosses a point it does not include.
 */
export function extend(pattern: Pattern, point: number): Pattern {
  if (point < 0 || point > 8 || pattern.includes(point)) return pattern;
  const last = pattern[pattern.length - 1];
  const mid = last === undefined ? null : between(last, point);
  return mid !== null && !pattern.includes(mid) ? [...pattern, mid, point] : [...pattern, point];
}

export interface Point {
  x: number;
  y: number;
}

/** Centre of a point on a pad `size` wide: the points sit at 1/6, 3/6 and 5/6. */
export function pointCentre(point: number, size: number): Point {
  return { x: ((point % 3) * 2 + 1) * (size / 6), y: (Math.floor(point / 3) * 2 + 1) * (size / 6) };
}

/**
 * The points a finger moving from `from` to `to` passes within `radius` of, in
 * the order it reaches them. Looking at the whole segment, not only where a
 * move event lands, keeps a fast swipe from skipping a point.
 */
export function pointsAlong(from: Point, to: Point, size: number, radius: number): number[] {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len2 = dx * dx + dy * dy;
  const hits: Array<{ point: number; t: number }> = [];
  for (let point = 0; point < 9; point++) {
    const c = pointCentre(point, size);
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((c.x - from.x) * dx + (c.y - from.y) * dy) / len2));
    const px = from.x + t * dx - c.x;
    const py = from.y + t * dy - c.y;
    if (px * px + py * py <= radius * radius) hits.push({ point, t });
  }
  return hits.sort((a, b) => a.t - b.t).map((h) => h.point);
}

export const patternText = (pattern: Pattern) => pattern.join('-');

/** Setting a lock: the first drawing must have enough points, the second must repeat it. */
export type SetStep = { ok: true; pattern: Pattern } | { ok: false; reason: 'short' | 'mismatch' };

export function firstDrawing(pattern: Pattern): SetStep {
  return pattern.length >= MIN_POINTS ? { ok: true, pattern } : { ok: false, reason: 'short' };
}

export function confirmDrawing(first: Pattern, second: Pattern): SetStep {
  return patternText(first) === patternText(second) ? { ok: true, pattern: second } : { ok: false, reason: 'mismatch' };
}

/** PBKDF2 and random salts need WebCrypto, which browsers offer only on HTTPS or localhost. */
export function cryptoAvailable(): boolean {
  return typeof crypto !== 'undefined' && Boolean(crypto.subtle) && typeof crypto.getRandomValues === 'function';
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

export async function hashPattern(pattern: Pattern, salt: Uint8Array, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(patternText(pattern)), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations }, key, 256);
  return toBase64(new Uint8Array(bits));
}

export async function createGestureLock(pattern: Pattern, minutes: number, iterations = PBKDF2_ITERATIONS): Promise<GestureLock> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { salt: toBase64(salt), hash: await hashPattern(pattern, salt, iterations), iterations, minutes };
}

export async function patternMatches(lock: GestureLock, pattern: Pattern): Promise<boolean> {
  if (pattern.length === 0) return false;
  const hash = await hashPattern(pattern, fromBase64(lock.salt), lock.iterations);
  // Same length by construction; compare every byte anyway.
  let diff = hash.length ^ lock.hash.length;
  for (let i = 0; i < hash.length; i++) diff |= hash.charCodeAt(i) ^ (lock.hash.charCodeAt(i) || 0);
  return diff === 0;
}

const triesKey = (email: string) => `gestureLockTries:${email.toLowerCase()}`;

export function saveGestureLock(email: string, lock: GestureLock): void {
  localStorage.setItem(gestureLockKey(email), JSON.stringify(lock));
  localStorage.removeItem(triesKey(email));
}

export function removeGestureLock(email: string): void {
  localStorage.removeItem(gestureLockKey(email));
  localStorage.removeItem(triesKey(email));
}

/** Failed tries so far; kept in storage so reloading the page does not reset them. */
export function failedTries(email: string): number {
  return Number(localStorage.getItem(triesKey(email))) || 0;
}

/** Counts a wrong drawing; returns the tries left (0: log out). */
export function recordFailedTry(email: string): number {
  const tries = failedTries(email) + 1;
  localStorage.setItem(triesKey(email), String(tries));
  return Math.max(0, MAX_TRIES - tries);
}

export function resetTries(email: string): void {
  localStorage.removeItem(triesKey(email));
}
