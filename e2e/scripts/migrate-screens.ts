// Screenshots of the migration and announcement pages (issue 17) at 390×844:
// npx tsx e2e/scripts/migrate-screens.ts [baseUrl] [zh|en]. Needs migrate-screens-server.ts
// running; writes e2e/artifacts/screens/<lang>-migrate-*.png.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:18680';
const lang = process.argv[3] ?? 'zh';
const out = new URL('../artifacts/screens/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'] });
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, locale: lang === 'zh' ? 'zh-CN' : 'en-US', timezoneId: 'Asia/Shanghai' });
const page = await context.newPage();
page.on('pageerror', (e) => console.error('pageerror', e.message));
const shot = async (name: string, fullPage = false) => {
  await page.waitForTimeout(900);
  await page.screenshot({ path: `${out}${lang}-migrate-${name}.png`, fullPage });
  console.log('saved', name);
};
const login = async (email: string) => {
  await page.goto(`${base}/#/pages/login/index`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill('demo1234');
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/list-tab/);
};

const user = process.argv[4] !== 'admin-only';
if (user) {
  await login('alice@demo.test');
  await page.locator('.mw-ann-banner').waitFor();
  await shot('inbox-banner');
  await page.locator('.mw-ann-banner').click();
  await page.waitForURL(/announcements/);
  await shot('user-list');
}
if (user) {
  await page.evaluate(() => localStorage.clear());
}
await login('admin@demo.test');
await page.goto(`${base}/#/pages/admin/migrate/index`);
await page.locator('.mw-migrate-account').first().waitFor();
await shot('admin-top');
await shot('admin-full', true);
await page.locator('.mw-migrate-account').first().click();
await page.locator('.mw-migrate-folder').first().waitFor();
await shot('admin-folders', true);
await page.goto(`${base}/#/pages/admin/announcements/index`);
await page.locator('.mw-migrate-sub').first().waitFor();
await shot('announcements-admin', true);
await browser.close();
