// The app's side of api/early.ts: a GET whose URL index.html's early script already
// asked for takes that answer, once. Only fresh answers for the same URL (and so the
// same token) are taken; anything else is asked again as usual.

/** Older answers are not taken: the list may have changed since (a page left open in the background). */
export const EARLY_MAX_AGE_MS = 15_000;

/** One normal form for both sides: the same parameters in any order are the same call. */
export function callKey(url: string): string {
  const u = new URL(url);
  u.searchParams.sort();
  return `${u.origin}${u.pathname}?${u.searchParams.toString()}`;
}

/**
 * The early answer for this URL, or undefined. It rejects when `signal` aborts, as fetch
 * would, so the request's own time-out still holds.
 */
export function takeEarly(url: string, signal: AbortSignal, now = Date.now()): Promise<Response> | undefined {
  const calls = typeof window === 'undefined' ? undefined : window.__mwEarly;
  if (!calls?.length) return undefined;
  const key = callKey(url);
  const i = calls.findIndex((c) => callKey(c.url) === key);
  if (i < 0) return undefined;
  const [call] = calls.splice(i, 1);
  if (now - call!.at > EARLY_MAX_AGE_MS) return undefined;
  return new Promise<Response>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
    call!.response.then(resolve, reject);
  });
}
