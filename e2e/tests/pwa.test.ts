import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL } from '../env';
import { apiToken, launch, phone, screenshot } from '../helpers';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  ({ page } = await phone(browser));
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(({ onTestFailed, task }) => {
  onTestFailed(() => screenshot(page, `pwa-${task.name}`));
});

it('is installable and its service worker caches the app shell but never the API', async () => {
  const token = await apiToken('alice@demo.test');
  await page.goto(`${BASE_URL}/?t=${encodeURIComponent(token)}&email=alice@demo.test`);
  await page.locator('.mw-mail-row').first().waitFor();
  await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), { timeout: 20_000 }).toBe('activated');

  // Browse so that API calls pass the (now controlling) worker.
  await page.reload();
  await page.locator('.mw-mail-row').first().click();
  await page.locator('.mw-read').waitFor();

  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const key of await caches.keys()) for (const request of await (await caches.open(key)).keys()) urls.push(request.url);
    return urls;
  });
  expect(cached.some((u) => u.endsWith('/index.html'))).toBe(true);
  expect(cached.some((u) => u.includes('/assets/'))).toBe(true);
  expect(cached.filter((u) => u.includes('/h5/') || u.includes('t='))).toEqual([]);

  // Headless contexts are incognito; apart from that Chromium finds nothing missing.
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
  await cdp.detach();
});
