import { beforeEach, describe, expect, it } from 'vitest';
import * as lockModule from './gesture-lock';
import { GRACE_MS, gestureLockEnabled, gestureLockStore, lockDue, markAway, markBack, readGestureLock, setGestureLocked } from './gesture-lock';
import {
  announceUnlock, between, confirmDrawing, createGestureLock, extend, failedTries, firstDrawing, MAX_TRIES, patternMatches,
  pointCentre, pointsAlong, readGestureLock as readLazily, recordFailedTry, removeGestureLock, resetTries, saveGestureLock, type Pattern,
} from './gesture-pattern';
import { session } from './session';

const T = 1_700_000_000_000;
const draw = (...points: number[]): Pattern => points.reduce<Pattern>((p, point) => extend(p, point), []);

beforeEach(() => {
  session.clearAll();
  localStorage.clear();
  setGestureLocked(false);
});

describe('drawing a pattern', () => {
  it('finds the point a straight line jumps over', () => {
    expect(between(0, 2)).toBe(1);
    expect(between(0, 8)).toBe(4);
    expect(between(6, 0)).toBe(3);
    expect(between(2, 6)).toBe(4);
    expect(between(1, 7)).toBe(4);
    expect(between(0, 1)).toBeNull();
    expect(between(0, 5)).toBeNull();
    expect(between(3, 4)).toBeNull();
  });

  it('adds a jumped-over point first, unless it is already used', () => {
    expect(draw(0, 2)).toEqual([0, 1, 2]);
    expect(draw(1, 0, 2)).toEqual([1, 0, 2]);
    expect(draw(0, 8, 6)).toEqual([0, 4, 8, 7, 6]);
    expect(draw(0, 5)).toEqual([0, 5]);
  });

  it('ignores a point touched again and points off the pad', () => {
    expect(draw(0, 1, 0, 1, 4)).toEqual([0, 1, 4]);
    expect(draw(0, 9, -1)).toEqual([0]);
  });

  it('hits the points along a fast move, in order', () => {
    const size = 300;
    const c = (p: number) => pointCentre(p, size);
    expect(c(0)).toEqual({ x: 50, y: 50 });
    expect(c(8)).toEqual({ x: 250, y: 250 });
    expect(pointsAlong(c(0), c(2), size, 36)).toEqual([0, 1, 2]);
    expect(pointsAlong(c(8), c(0), size, 36)).toEqual([8, 4, 0]);
    // A knight's move passes between points, touching none of them.
    expect(pointsAlong(c(0), c(5), size, 36)).toEqual([0, 5]);
    expect(pointsAlong({ x: 0, y: 0 }, { x: 10, y: 10 }, size, 36)).toEqual([]);
  });
});

describe('setting a lock', () => {
  it('needs at least 4 points', () => {
    expect(firstDrawing(draw(0, 1, 2))).toEqual({ ok: false, reason: 'short' });
    expect(firstDrawing(draw(0, 1, 2, 5))).toEqual({ ok: true, pattern: [0, 1, 2, 5] });
    // 0→2 takes 1 on the way: three touches, four points.
    expect(firstDrawing(draw(0, 2, 5)).ok).toBe(true);
  });

  it('must be drawn the same way twice', () => {
    expect(confirmDrawing([0, 1, 2, 5], [0, 1, 2, 5])).toEqual({ ok: true, pattern: [0, 1, 2, 5] });
    expect(confirmDrawing([0, 1, 2, 5], [5, 2, 1, 0])).toEqual({ ok: false, reason: 'mismatch' });
    expect(confirmDrawing([0, 1, 2, 5], [0, 1, 2, 5, 8])).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('keeps only a salted hash, per mailbox, and checks a drawing against it', async () => {
    const lock = await createGestureLock([0, 1, 2, 5, 8], 5, 1000);
    expect(JSON.stringify(lock)).not.toContain('0-1-2-5-8');
    expect(lock.minutes).toBe(5);
    saveGestureLock('Alice@demo.test', lock);
    expect(gestureLockEnabled('alice@demo.test')).toBe(true);
    expect(gestureLockEnabled('bob@demo.test')).toBe(false);
    expect(await patternMatches(readGestureLock('alice@demo.test')!, [0, 1, 2, 5, 8])).toBe(true);
    expect(await patternMatches(lock, [8, 5, 2, 1, 0])).toBe(false);
    expect(await patternMatches(lock, [])).toBe(false);
    const again = await createGestureLock([0, 1, 2, 5, 8], 5, 1000);
    expect(again.salt).not.toBe(lock.salt);
    expect(again.hash).not.toBe(lock.hash);
    removeGestureLock('alice@demo.test');
    expect(gestureLockEnabled('alice@demo.test')).toBe(false);
  });

  it('uses at least 100k PBKDF2 iterations by default', async () => {
    const lock = await createGestureLock([0, 1, 2, 3], 0);
    expect(lock.iterations).toBeGreaterThanOrEqual(100_000);
  });
});

describe('when the lock is due', () => {
  it('locks after the chosen minutes away, never within the grace', () => {
    expect(lockDue(0, GRACE_MS - 1)).toBe(false);
    expect(lockDue(0, GRACE_MS)).toBe(true);
    expect(lockDue(1, 59_999)).toBe(false);
    expect(lockDue(1, 60_000)).toBe(true);
    expect(lockDue(30, 29 * 60_000)).toBe(false);
    expect(lockDue(30, 31 * 60_000)).toBe(true);
  });

  it('locks on return only with a session and a lock for its mailbox', async () => {
    const lock = await createGestureLock([0, 1, 2, 5], 1, 1000);
    markAway(T);
    markBack(T + 120_000);
    expect(gestureLockStore.get().locked).toBe(false);

    session.setToken('t1');
    session.setCurrentEmailName('alice@demo.test');
    saveGestureLock('alice@demo.test', lock);
    markAway(T);
    markBack(T + 30_000);
    expect(gestureLockStore.get().locked).toBe(false);
    markAway(T);
    markBack(T + 61_000);
    expect(gestureLockStore.get().locked).toBe(true);
  });

  it('the lazy pages unlock by the event the guard listens for, with the same storage key', async () => {
    const lazy = await import('./gesture-pattern');
    expect(lazy.UNLOCK_EVENT).toBe(lockModule.UNLOCK_EVENT);
    expect(lazy.gestureLockKey('A@b.test')).toBe(lockModule.gestureLockKey('A@b.test'));
    const lock = await createGestureLock([0, 1, 2, 5], 0, 1000);
    saveGestureLock('a@b.test', lock);
    expect(readLazily('a@b.test')).toEqual(readGestureLock('a@b.test'));
    setGestureLocked(true);
    announceUnlock();
    expect(gestureLockStore.get().locked).toBe(false);
  });

  it('a new session token (a login) unlocks', () => {
    session.setToken('t1');
    setGestureLocked(true);
    session.setToken('t2');
    expect(gestureLockStore.get().locked).toBe(false);
  });
});

describe('failed tries', () => {
  it('counts down to logging out, and is reset', () => {
    const email = 'alice@demo.test';
    for (let left = MAX_TRIES - 1; left >= 0; left--) expect(recordFailedTry(email)).toBe(left);
    expect(failedTries(email)).toBe(MAX_TRIES);
    resetTries(email);
    expect(failedTries(email)).toBe(0);
  });
});
