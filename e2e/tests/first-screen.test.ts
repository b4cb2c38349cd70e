import { expect, it } from 'vitest';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { BASE_URL } from '../env';
import { launch, login, phone } from '../helpers';

/**
 * A cold start for a signed-in user: a new page in the same context as the login (the session
 * stays in localStorage), with the HTTP cache off so every file comes over the wire. Service
 * workers are blocked: the app's worker, once it has precached during the login, would serve
 * the files from its cache, past the emulated network and past page.route (a CI run failed so:
 * the app's chunk "arrived" at 303 ms, before the early call had started; over the emulated
 * network it arrives after about 1,100 ms).
 */
async function coldStart(browser: Browser): Promise<{ cold: Page; cdp: CDPSession; close: () => Promise<void> }> {
  const { context, page } = await phone(browser, { serviceWorkers: 'block' });
  await login(page, 'alice@demo.test');
  const cold = await context.newPage();
  const cdp = await context.newCDPSession(cold);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return { cold, cdp, close: () => context.close() };
}

// Issue 15, scope 2: a returning user's Inbox asks for its data while the app's code is
// still downloading (apps/web/src/api/early.ts), and the app takes those answers instead
// of asking again. Each first-screen call then goes out exactly once, and before the
// app's chunk has arrived.
it('starts the Inbox calls beside the app download, and asks for each only once', async () => {
  const browser = await launch();
  try {
    const { cold, cdp, close } = await coldStart(browser);
    // A phone's network, roughly (100 ms latency, 2 Mbit/s): on bare loopback the app's chunk
    // lands before the HTML parser is even done, and the order below would prove nothing.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 100, downloadThroughput: 250_000, uploadThroughput: 250_000 });
    const calls: string[] = [];
    cold.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/h5/')) calls.push(path);
    });
    await cold.goto(`${BASE_URL}/#/pages/list-tab/index`);
    await cold.locator('.mw-mail-row').first().waitFor();

    for (const path of ['/h5/mail/list', '/h5/mbox/index', '/h5/setting/index']) {
      expect(calls.filter((c) => c === path), path).toHaveLength(1);
    }
    // The early calls left before the app's main chunk had finished loading.
    const order = await cold.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const list = entries.find((e) => e.name.includes('/h5/mail/list'))!;
      const app = entries.find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name))!;
      return { listStart: list.startTime, appEnd: app.responseEnd };
    });
    expect(order.listStart).toBeLessThan(order.appEnd);
    await close();
  } finally {
    await browser.close();
  }
});

// The splash paints without waiting for the style sheet (a round trip on a phone's network),
// and the app still never renders unstyled: the sheet is fetched as a preload and applied
// before the first render (apps/web/src/ui/app-style.ts). Here the sheet is held back until
// the splash has painted; the app's first page must then appear only with the sheet applied.
it('paints the splash before the style sheet arrives, and renders the app only once it applies', async () => {
  const browser = await launch();
  try {
    const { cold, close } = await coldStart(browser);
    // Records, from the page's own clock, the first paint and what the body looked like
    // when the app's first page entered the DOM (styles.css gives the body its grey).
    await cold.addInitScript({ content: `
      window.__paints = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__paints.push(e.name); }).observe({ type: 'paint', buffered: true });
      new MutationObserver((_, o) => {
        if (!document.querySelector('.mw-page')) return;
        o.disconnect();
        window.__bodyAtFirstRender = getComputedStyle(document.body).backgroundColor;
      }).observe(document, { childList: true, subtree: true });` });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => { release = resolve; });
    await cold.route(/\/assets\/index-[^/]+\.css$/, async (route) => {
      await held;
      await route.continue();
    });
    await cold.goto(`${BASE_URL}/#/pages/list-tab/index`, { waitUntil: 'commit' });
    await cold.locator('.mw-splash').waitFor();
    await expect.poll(() => cold.evaluate(() => (window as unknown as { __paints: string[] }).__paints)).toContain('first-contentful-paint');
    // The sheet is still held, so the first paint came without it, and the app has not rendered.
    expect(await cold.locator('.mw-page').count()).toBe(0);
    expect(await cold.evaluate(() => document.styleSheets.length)).toBe(1); // the splash's inline <style>
    release();
    await cold.locator('.mw-mail-row').first().waitFor();
    expect(await cold.evaluate(() => (window as unknown as { __bodyAtFirstRender: string }).__bodyAtFirstRender)).toBe('rgb(223, 227, 232)');
    await close();
  } finally {
    await browser.close();
  }
});
