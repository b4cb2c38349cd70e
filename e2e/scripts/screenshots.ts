// Takes screenshots of the main screens at a phone viewport, for a person to
// look at: npx tsx e2e/scripts/screenshots.ts [baseUrl]. Needs a running server
// with demo data; writes e2e/artifacts/screens/*.png.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:18080';
const lang = process.argv[3] ?? 'zh';
const out = new URL('../artifacts/screens/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
const page = await context.newPage();
page.on('pageerror', (e) => console.error('pageerror', e.message));
page.on('console', (msg) => { if (msg.type() === 'error') console.error('console', msg.text()); });
const shot = async (name: string) => {
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${out}${lang}-${name}.png` });
  console.log('saved', name);
};

await page.goto(`${base}/#/pages/login/index`);
await page.locator('input[name=email]').waitFor();
await shot('login-empty');
await page.locator('button[type=submit]').click();
await shot('login-errors');
await page.locator('input[name=email]').fill('alice@demo.test');
await page.locator('input[name=password]').fill('demo1234');
await page.locator('button[type=submit]').click();
await page.locator('.mw-mail-row').first().waitFor();
await shot('inbox');
await page.locator('.mw-mail-row').first().click();
await page.locator('.mw-read').waitFor();
await shot('read');
const showImages = page.locator('.mw-images-bar a');
if (await showImages.count()) {
  await showImages.click();
  await page.locator('.mw-images-bar').waitFor({ state: 'detached' });
  await shot('read-images');
}
const image = page.locator('.mw-attachments .adm-list-item').first();
if (await image.count()) {
  await image.click();
  await page.locator('.adm-image-viewer-content').waitFor().catch(() => undefined);
  await shot('image-preview');
  await page.goBack();
  await page.goForward();
  await page.locator('.mw-read').waitFor();
}
await page.goto(`${base}/#/pages/read-mail/index?mid=3`);
await page.locator('.mw-read').waitFor();
await shot('read-text');
await page.goto(`${base}/#/pages/mbox/mbox-list`);
await page.locator('.adm-list-item').first().waitFor();
await shot('mailbox');
await page.goto(`${base}/#/pages/modules/dir-list/index`);
await page.locator('.adm-list-item').first().waitFor();
await shot('dir-list');
await page.goto(`${base}/#/pages/address/index`);
await shot('address');
await page.goto(`${base}/#/pages/setting/index`);
await page.locator('.mw-account-meta').waitFor();
await shot('settings');
await page.goto(`${base}/#/pages/modules/setting-about/index`);
await shot('about');
await page.goto(`${base}/#/pages/modules/choose-dir/index?ids=1&from=0`);
await shot('choose-dir');
const cdp = await context.newCDPSession(page);
console.log('installability errors', JSON.stringify(await cdp.send('Page.getInstallabilityErrors')));
console.log('service worker', await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.active?.state ?? 'none')));
await page.setViewportSize({ width: 1280, height: 800 });
await page.goto(`${base}/#/pages/list-tab/index`);
await page.locator('.mw-mail-row').first().waitFor();
await shot('desktop-inbox');
await browser.close();
