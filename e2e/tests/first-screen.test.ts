import { expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { launch, login, phone } from '../helpers';

// Issue 15, scope 2: a returning user's Inbox asks for its data while the app's code is
// still downloading (apps/web/src/api/early.ts), and the app takes those answers instead
// of asking again. Each first-screen call then goes out exactly once, and before the
// app's chunk has arrived.
it('starts the Inbox calls beside the app download, and asks for each only once', async () => {
  const browser = await launch();
  try {
    const { context, page } = await phone(browser);
    await login(page, 'alice@demo.test');
    // A cold start: a new page in the same context (the session stays in localStorage),
    // with the HTTP cache off so every file comes over the wire.
    const cold = await context.newPage();
    const cdp = await context.newCDPSession(cold);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
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
    await context.close();
  } finally {
    await browser.close();
  }
});
