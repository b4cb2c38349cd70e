// Screenshots of the filter-rule and auto-reply pages (issue 16) at 390×844, for a person
// to look at: npx tsx e2e/scripts/mail-rules-screens.ts [baseUrl] [zh|en]. Needs a running
// server with demo data; writes e2e/artifacts/screens/<lang>-rules-*.png.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:18080';
const lang = process.argv[3] ?? 'zh';
const out = new URL('../artifacts/screens/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, locale: lang === 'zh' ? 'zh-CN' : 'en-US', timezoneId: 'Asia/Shanghai' });
const page = await context.newPage();
page.on('pageerror', (e) => console.error('pageerror', e.message));
const shot = async (name: string, fullPage = false) => {
  await page.waitForTimeout(700);
  await page.screenshot({ path: `${out}${lang}-rules-${name}.png`, fullPage });
  console.log('saved', name);
};

await page.goto(`${base}/#/pages/login/index`);
await page.locator('input[name=email]').fill('alice@demo.test');
await page.locator('input[name=password]').fill('demo1234');
await page.locator('button[type=submit]').click();
await page.locator('.mw-mail-row').first().waitFor();
await page.goto(`${base}/#/pages/setting/index`);
await page.locator('[data-row=filter]').waitFor();
await page.locator('[data-row=filter]').scrollIntoViewIfNeeded();
await shot('settings-tab');
await page.locator('[data-row=filter]').click();
await shot('list-empty');
await page.locator('[data-action=add-rule]').click();
await page.locator('#rule-name').fill(lang === 'zh' ? '项目邮件' : 'Project mail');
await page.locator('[data-condition=subject] input').fill('a');
await page.locator('[data-dry-run]').filter({ hasText: /\d/ }).waitFor();
await page.locator('[data-action=read] select').selectOption('move');
await shot('editor-new', true);
await page.locator('[data-action=save-rule]').click();
await page.waitForURL(/id=\d+/);
await page.locator('[data-action=run-rule]').click();
await page.locator('[data-job-state]').waitFor();
await shot('editor-saved-run', true);
await page.goto(`${base}/#/pages/modules/setting-filter/index`);
await page.locator('[data-rule-id]').first().waitFor();
await shot('list');
await page.goto(`${base}/#/pages/modules/setting-autoreply/index`);
await page.locator('[data-action=save-autoreply]').waitFor();
await shot('autoreply', true);
await browser.close();
