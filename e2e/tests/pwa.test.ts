import { expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { apiToken, phoneSuite } from '../helpers';

const suite = phoneSuite('pwa');

it('is installable and its service worker caches the app shell but never the API', async () => {
  const token = await apiToken('alice@demo.test');
  await suite.page.goto(`${BASE_URL}/?t=${encodeURIComponent(token)}&email=alice@demo.test`);
  await suite.page.locator('.mw-mail-row').first().waitFor();
  await expect.poll(() => suite.page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), { timeout: 20_000 }).toBe('activated');

  // Browse so that API calls pass the (now controlling) worker.
  await suite.page.reload();
  await suite.page.locator('.mw-mail-row').first().click();
  await suite.page.locator('.mw-read').waitFor();

  const cached = await suite.page.evaluate(async () => {
    const urls: string[] = [];
    for (const key of await caches.keys()) for (const request of await (await caches.open(key)).keys()) urls.push(request.url);
    return urls;
  });
  expect(cached.some((u) => u.endsWith('/index.html'))).toBe(true);
  expect(cached.some((u) => u.includes('/assets/'))).toBe(true);
  expect(cached.filter((u) => u.includes('/h5/') || u.includes('t='))).toEqual([]);

  // Headless contexts are incognito; apart from that Chromium finds nothing missing.
  const cdp = await suite.page.context().newCDPSession(suite.page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
  await cdp.detach();
});
