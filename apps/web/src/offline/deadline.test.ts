import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settlesWithin } from './deadline';

describe('settlesWithin (the logout replay bound)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is true when the work ends in time, whether it succeeds or fails', async () => {
    expect(await settlesWithin(Promise.resolve(), 1000)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error('refused')), 1000)).toBe(true);
  });

  it('is false once the time runs out on work that never ends, and not a moment before', async () => {
    let result: boolean | null = null;
    void settlesWithin(new Promise(() => undefined), 60_000).then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(result).toBe(null);
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe(false);
  });
});
