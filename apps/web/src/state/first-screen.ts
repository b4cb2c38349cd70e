// Work that is not on the first screen (live updates, the offline layer and its
// caches) starts once the Inbox has shown its first page, so that on a phone it does
// not compete with the first screen for the network and the main thread (issue 15).
// A start on another screen (login, a deep link) waits at most FIRST_SCREEN_WAIT_MS.

export const FIRST_SCREEN_WAIT_MS = 3_000;

let shown: () => void = () => undefined;
const firstScreen = new Promise<void>((resolve) => {
  shown = resolve;
});

/** Called by the mail list once its first page is on screen (or has failed). */
export function firstScreenShown(): void {
  shown();
}

/** Resolves after the first screen has painted, or after FIRST_SCREEN_WAIT_MS. */
export function afterFirstScreen(): Promise<void> {
  const waited = new Promise<void>((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS));
  return Promise.race([firstScreen, waited]).then(() => new Promise<void>((resolve) => {
    // The next frame: the rows are painted before the deferred work starts.
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(resolve, 0));
    else resolve();
  }));
}
