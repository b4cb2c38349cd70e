import { useCallback, useEffect, useState } from 'react';
import { Code, VERIFY_RESEND_SECONDS } from '@mailwing/shared';

/** Whole seconds left until `until` (ms), never below 0. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * How long to wait before offering "send again": the server's resendIn after a
 * code went out, its retryAfter when it refused with 429, else spec §9's 60 s.
 * Other failures (a wrong password, no network) allow an immediate retry.
 */
export function resendWait(outcome: { resendIn?: number } | { code: number; retryAfter?: number }): number {
  if ('code' in outcome) {
    if (outcome.code !== Code.TooMany) return 0;
    return outcome.retryAfter && outcome.retryAfter > 0 ? Math.ceil(outcome.retryAfter) : VERIFY_RESEND_SECONDS;
  }
  return outcome.resendIn && outcome.resendIn > 0 ? outcome.resendIn : VERIFY_RESEND_SECONDS;
}

const storageKey = (key: string) => `mw-resend:${key}`;

function readUntil(key: string): number {
  try {
    return Number(sessionStorage.getItem(storageKey(key))) || 0;
  } catch {
    return 0;
  }
}

/**
 * A resend countdown per key (e.g. the ticket or address a code goes to). The
 * end time is kept in sessionStorage, so leaving the page or reloading it does
 * not offer a new code early.
 */
export function useCountdown(key: string): [left: number, start: (seconds: number) => void] {
  const [until, setUntil] = useState(() => readUntil(key));
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    setUntil(readUntil(key));
    setNow(Date.now());
  }, [key]);

  const left = secondsLeft(until, now);
  const running = left > 0;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running, until]);

  const start = useCallback((seconds: number) => {
    const end = Date.now() + seconds * 1000;
    try {
      sessionStorage.setItem(storageKey(key), String(end));
    } catch {
      // Private mode: the countdown still runs in memory.
    }
    setUntil(end);
    setNow(Date.now());
  }, [key]);

  return [left, start];
}
