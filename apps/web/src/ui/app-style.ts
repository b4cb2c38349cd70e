/**
 * The app's style sheet arrives as a preload (vite.config.ts `styleAfterSplash`), so that it
 * does not hold the splash's first paint. This turns it into the style sheet and resolves once
 * it applies, so the app never renders unstyled. On a phone's network it has long arrived by
 * the time the app's code has (it is 10 KB against 150, and fetched first), so this waits for
 * a parse, not a download.
 *
 * Without the marked link (the dev server injects styles through the module graph) there is
 * nothing to wait for. A sheet that fails to load resolves too: the app then renders as it
 * would have with a failed <link>, rather than never.
 */
export function appStyleReady(doc: Document = document): Promise<void> {
  const link = doc.querySelector<HTMLLinkElement>('link[data-mw-app-style]');
  if (!link || (link.rel === 'stylesheet' && link.sheet)) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
    link.rel = 'stylesheet';
  });
}
