// Screenshots of the signature and template pages (issue 16) for a person to look at:
// npx tsx e2e/scripts/screenshots-mail-texts.ts [baseUrl] [zh|en]. Needs a running server
// with demo data; writes e2e/artifacts/screens/<lang>-texts-*.png.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:18080';
const lang = process.argv[3] ?? 'zh';
const out = new URL('../artifacts/screens/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });

async function call<T>(path: string, token: string, form?: Record<string, string>): Promise<T> {
  const res = await fetch(`${base}/h5${path}?t=${token}`, form ? { method: 'POST', body: new URLSearchParams(form) } : {});
  return ((await res.json()) as { data: T }).data;
}
const token = (await (await fetch(`${base}/h5/login/h5`, { method: 'POST', body: new URLSearchParams({ email: 'admin@demo.test', password: 'demo1234' }) })).json()).data.token as string;

// Sample data, once per server (names are unique, so a second run changes nothing).
const zh = lang === 'zh';
const sigs = await call<{ list: unknown[] }>('/signature/list', token);
if (sigs.list.length === 0) {
  const work = await call<{ id: string }>('/signature/create', token, { name: '工作 Work', html: '<p><b>王管理</b> · IT 部<br>Demo Co · +86 10 1234 5678</p>' });
  await call('/signature/create', token, { name: 'Short', html: '<p>— Admin</p>' });
  await call('/signature/defaults', token, { newMail: work.id });
  const sales = await call<{ id: string }>('/template/category-create', token, { name: zh ? '销售' : 'Sales' });
  await call('/template/create', token, { name: zh ? '报价' : 'Quote', categoryId: sales.id, subject: zh ? '{{company}} 报价' : 'Quote from {{company}}', html: '<p>{{recipient.name}}，您好：</p><p>附件是报价单。</p>' });
  await call('/template/create', token, { name: zh ? '会议跟进' : 'Meeting follow-up', html: '<p>Hi {{recipient.name}}, thanks for the meeting on {{date}}.</p>' });
  const hr = await call<{ id: string }>('/admin/templates/category-create', token, { name: zh ? '人事' : 'HR' });
  await call('/admin/templates/create', token, { name: zh ? '入职欢迎' : 'Welcome aboard', categoryId: hr.id, subject: zh ? '欢迎加入 {{company}}' : 'Welcome to {{company}}', html: '<p>Welcome, {{recipient.name}}!</p>' });
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, locale: zh ? 'zh-CN' : 'en-US' });
const page = await context.newPage();
page.on('pageerror', (e) => console.error('pageerror', e.message));
const shot = async (name: string, full = false) => {
  await page.waitForTimeout(700);
  await page.screenshot({ path: `${out}${lang}-texts-${name}.png`, fullPage: full });
  console.log('saved', name);
};

await page.goto(`${base}/#/pages/login/index`);
await page.evaluate((l) => localStorage.setItem('language', JSON.stringify(l).slice(1, -1)), lang);
await page.reload();
await page.locator('input[name=email]').fill('admin@demo.test');
await page.locator('input[name=password]').fill('demo1234');
await page.locator('button[type=submit]').click();
await page.waitForURL(/list-tab/);
await page.goto(`${base}/#/pages/setting/index`);
await page.locator('[data-group=mail-rules]').scrollIntoViewIfNeeded();
await shot('settings-tab');
await page.locator('[data-row=signature]').click();
await page.locator('[data-row=default-new]').waitFor();
await shot('signature-list');
await page.locator('[data-signature]').first().click();
await page.locator('.mw-texts-sheet .mw-editor-content').waitFor();
await shot('signature-edit');
await page.goto(`${base}/#/pages/modules/setting-template/index`);
await page.locator('[data-template]').first().waitFor();
await shot('template-list');
await shot('template-list-full', true);
await page.locator('[data-template]').first().click();
await page.locator('.mw-texts-sheet .mw-editor-content').waitFor();
await shot('template-edit');
await page.goto(`${base}/#/pages/admin/template/index`);
await page.locator('[data-template]').first().waitFor();
await shot('admin-template');
await page.goto(`${base}/#/pages/write/index`);
await page.reload();
await page.locator('.mw-editor-content .mw-signature').waitFor();
await shot('compose-signature');
await page.locator('[data-action=insert-template]').click();
await page.locator('.mw-tpl-sheet [data-template]').first().waitFor();
await shot('compose-template-sheet');
await browser.close();
