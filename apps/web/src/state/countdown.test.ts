import { describe, expect, it } from 'vitest';
import { VERIFY_RESEND_SECONDS } from '@mailwing/shared';
import { resendWait, secondsLeft } from './countdown';

describe('resend countdown (spec §9: 60 s)', () => {
  it('counts whole seconds down to 0', () => {
    expect(secondsLeft(61_000, 1_000)).toBe(60);
    expect(secondsLeft(61_000, 1_001)).toBe(60);
    expect(secondsLeft(61_000, 60_500)).toBe(1);
    expect(secondsLeft(61_000, 61_000)).toBe(0);
    expect(secondsLeft(61_000, 99_000)).toBe(0);
  });

  it('waits the server’s resendIn after a code went out, else 60 s', () => {
    expect(resendWait({ resendIn: 45 })).toBe(45);
    expect(resendWait({ resendIn: 0 })).toBe(VERIFY_RESEND_SECONDS);
    expect(resendWait({})).toBe(60);
  });

  it('keeps counting when the server says 429, for its retryAfter', () => {
    expect(resendWait({ code: 429, retryAfter: 37 })).toBe(37);
    expect(resendWait({ code: 429, retryAfter: 2.2 })).toBe(3);
    expect(resendWait({ code: 429 })).toBe(60);
  });

  it('lets the user try again at once after any other failure', () => {
    expect(resendWait({ code: 422 })).toBe(0);
    expect(resendWait({ code: 0 })).toBe(0);
  });
});
