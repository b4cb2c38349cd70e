import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, apiToken, launch, login, screenshot, smallTargets } from '../helpers';
import { BASE_URL, MAP_PORT } from '../env';
import { mapStats } from '../map-standin';

// The location pages (issue 15 §6) in Chromium at 390×844, in English and Chinese: a place is
// picked by the device's position (granted and set in the browser context), by search (the
// server asks the geocoder stand-in) and by coordinates, on a map whose tiles the browser
// loads from the tile stand-in; compose inserts it as a link plus a small map drawn by the
// server, which reaches the reader as an inline part; /open-location shows the place.

const SQUARE = { latitude: 31.2304, longitude: 121.4737 };
const TOUCH = '.mw-location button, .mw-location a[data-action], .mw-location-footer button, .mw-location .leaflet-control-zoom a, [data-option=location]';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  // Alice's language goes back to English for the files that run after this one.
  await api('/setting/modifylanguage', { token: await apiToken('alice@demo.test'), query: { language: 'en' } });
  await browser?.close();
});

async function phoneWith(locale: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, hasTouch: true, locale,
    geolocation: SQUARE, permissions: ['geolocation'],
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[pageerror]', error.message));
  return { context, page };
}

/** Tiles on screen that the browser loaded (Leaflet marks each when its image arrived). */
const loadedTiles = (page: Page) => page.locator('.leaflet-tile-loaded').count();

async function openCompose(page: Page, subject: string): Promise<void> {
  await page.goto(`${BASE_URL}/#/pages/write/index`);
  await page.locator('#mw-addr-to').waitFor();
  await page.locator('.mw-editor-content').waitFor();
  await page.locator('#mw-addr-to').fill('bob@demo.test,');
  await page.locator('.mw-addr[data-field=to] .mw-chip[data-address="bob@demo.test"]').waitFor();
  await page.locator('#mw-subject').fill(subject);
}

interface Summary { id: string; subject: string }
interface Mail { html: string }

async function receivedHtml(subject: string): Promise<string> {
  const bob = await apiToken('bob@demo.test');
  let found: Summary | undefined;
  await expect.poll(async () => {
    found = (await api<{ list: Summary[] }>('/mail/list', { token: bob, query: { mid: '0', page: '1', size: '50' } })).list.find((m) => m.subject === subject);
    return found !== undefined;
  }, { timeout: 40_000 }).toBe(true);
  return (await api<Mail>('/read/index', { token: bob, query: { mid: found!.id } })).html;
}

for (const lang of ['en', 'zh'] as const) {
  describe(`location pages (${lang})`, () => {
    let context: BrowserContext;
    let page: Page;
    const w = lang === 'en'
      ? { choose: 'Choose location', insert: 'Insert into mail', mine: 'My location', search: "People's Square", found: "People's Square, Huangpu", option: 'Location', open: 'Location', copy: 'Copy coordinates' }
      : { choose: '选择位置', insert: '插入邮件', mine: '我的位置', search: '人民广场', found: '人民广场, 黄浦区', option: '位置', open: '位置', copy: '复制经纬度' };
    const subject = `Meet here ${lang} ${Date.now()}`;

    beforeAll(async () => {
      await api('/setting/modifylanguage', { token: await apiToken('alice@demo.test'), query: { language: lang } });
      ({ context, page } = await phoneWith(lang === 'en' ? 'en-US' : 'zh-CN'));
    });
    afterAll(async () => {
      await context?.close();
    });
    beforeEach(({ onTestFailed, task }) => {
      onTestFailed(() => screenshot(page, `location-${lang}-${task.name}`));
    });

    it('picks a place by position and by search, and puts it in a mail as a link and an inline map', async () => {
      await login(page, 'alice@demo.test');
      await openCompose(page, subject);
      const before = await mapStats();
      await page.locator('[data-option=location]', { hasText: w.option }).click();
      await page.waitForURL(/#\/choose-location\?for=write$/);
      await page.locator('.adm-nav-bar', { hasText: w.choose }).waitFor();

      // The map's tiles come from the configured tile server, straight to the browser.
      await expect.poll(() => loadedTiles(page), { timeout: 15_000 }).toBeGreaterThan(0);
      expect((await mapStats()).tiles).toBeGreaterThan(before.tiles);
      await screenshot(page, `location-${lang}-choose`);

      // The device's position (granted in this context).
      await page.locator('[data-action=my-location]').click();
      await expect.poll(() => page.locator('[data-testid=picked-coords]').textContent()).toContain('31.2304, 121.4737');
      await expect.poll(() => loadedTiles(page), { timeout: 15_000 }).toBeGreaterThan(0);
      await screenshot(page, `location-${lang}-position`);

      // Coordinates typed in the search box move the pin without asking the geocoder.
      const searchesBefore = (await mapStats()).searches;
      const box = page.locator('.mw-location-search input');
      await box.fill('39.9087, 116.3975');
      await box.press('Enter');
      await expect.poll(() => page.locator('[data-testid=picked-coords]').textContent()).toContain('39.9087, 116.3975');
      expect((await mapStats()).searches).toBe(searchesBefore);

      // A place name goes to the geocoder (through the server).
      await box.fill(w.search);
      await box.press('Enter');
      const result = page.locator('.mw-location-results .adm-list-item', { hasText: w.found });
      await result.waitFor();
      expect((await mapStats()).searches).toBe(searchesBefore + 1);
      await screenshot(page, `location-${lang}-search`);
      await result.click();
      await expect.poll(() => page.locator('[data-testid=picked-coords]').textContent()).toContain('31.2304, 121.4737');
      expect(await page.locator('.mw-location-name input').inputValue()).toContain(w.found);
      expect(await smallTargets(page, TOUCH)).toEqual([]);
      await screenshot(page, `location-${lang}-picked`);

      // Insert: back on the mail, which now ends with the place's link and its map.
      await page.locator('[data-action=location-confirm]', { hasText: w.insert }).click();
      await page.waitForURL(/#\/pages\/write\/index$/);
      const editor = page.locator('.mw-editor-content');
      await editor.locator('a[href*="#/open-location?lat=31.2304&lng=121.4737"]').waitFor();
      const img = editor.locator('img[src*="/h5/write/file"]');
      await img.waitFor();
      await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(600);
      expect(await page.locator('#mw-subject').inputValue()).toBe(subject);
      await screenshot(page, `location-${lang}-compose`);

      await page.locator('.mw-send').click();
      // With undo-send on, the page goes back with an Undo toast; without, to the result page.
      await page.waitForURL((url) => !url.hash.startsWith('#/pages/write/'));

      // Bob's copy carries the map as an inline part: his reader asks nothing of the tile server.
      const html = await receivedHtml(subject);
      expect(html).toMatch(/\/h5\/read\/inline\?mid=\d+&amp;cid=/);
      expect(html).not.toContain(`127.0.0.1:${MAP_PORT}`);
      expect(html).toContain('#/open-location?lat=31.2304&amp;lng=121.4737');
    });

    it('opens the place from the link, without a session', async () => {
      const fresh = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
      const reader = await fresh.newPage();
      try {
        await reader.goto(`${BASE_URL}/#/open-location?lat=31.2304&lng=121.4737&name=${encodeURIComponent(w.found)}`);
        await reader.locator('.adm-nav-bar', { hasText: w.open }).waitFor();
        await reader.locator('[data-testid=place-name]', { hasText: w.found }).waitFor();
        await expect.poll(() => reader.locator('.leaflet-tile-loaded').count(), { timeout: 15_000 }).toBeGreaterThan(0);
        // The pin is drawn at the place.
        expect(await reader.locator('.leaflet-interactive').count()).toBe(1);
        expect(await reader.locator('[data-action=open-app]').getAttribute('href')).toMatch(/^geo:31\.2304,121\.4737\?q=/);
        await reader.locator('[data-action=copy-coords]', { hasText: w.copy }).waitFor();
        expect(await smallTargets(reader, TOUCH)).toEqual([]);
        await screenshot(reader, `location-${lang}-open`);

        // A damaged link says so instead of showing a map of nowhere.
        await reader.goto(`${BASE_URL}/#/open-location?lat=north&lng=121.4737`);
        await reader.locator('[data-testid=bad-location]').waitFor();
        await screenshot(reader, `location-${lang}-open-bad`);
      } finally {
        await fresh.close();
      }
    });
  });
}
