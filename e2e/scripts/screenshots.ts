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
await page.locator('.mw-account-email').waitFor();
await shot('settings');
await page.goto(`${base}/#/pages/modules/setting-about/index`);
await shot('about');
await page.goto(`${base}/#/pages/modules/choose-dir/index?ids=1&from=0`);
await shot('choose-dir');

// Compose (issue 4): empty, with chips, suggestions, attachments and the toolbar; the
// attachment page; the result; a sent mail with its delivery list; the Sent list.
const en = lang !== 'zh';
await page.goto(`${base}/#/pages/list-tab/index`);
await page.locator('.mw-compose-fab').click();
await page.locator('.mw-editor-content').waitFor();
await shot('compose-empty');
await page.locator('#mw-addr-to').fill('bob@demo.test, Jonathan Alexander Richardson-Smythe <jonathan.richardson@partner-company.example> not-an-address ');
await page.locator('.mw-compose-more').click();
await page.locator('#mw-addr-cc').fill('bo');
await page.waitForTimeout(900);
await shot('compose-suggest');
await page.locator('#mw-addr-cc').fill('');
await page.locator('#mw-subject').fill(en ? 'Quarterly report and the launch plan for next year' : '季度报告与明年的发布计划');
await page.locator('[data-option=attachments]').click();
await page.locator('input[data-role=attachments]').setInputFiles([
  { name: 'report-2026-Q3-final-version-with-appendix.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(180_000, 1) },
  { name: 'numbers.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.alloc(40_000, 2) },
  { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.alloc(10, 3) },
  { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.alloc(2_000, 4) },
]);
await page.locator('[data-attach-row=done]').first().waitFor();
await shot('attach-upload');
// A slow uplink, to see the progress bars.
const net = await context.newCDPSession(page);
await net.send('Network.enable');
await net.send('Network.emulateNetworkConditions', { offline: false, latency: 50, downloadThroughput: 500_000, uploadThroughput: 100_000 });
await page.locator('input[data-role=attachments]').setInputFiles([
  { name: 'site-video.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(1_500_000, 5) },
  { name: 'slides.pptx', mimeType: 'application/octet-stream', buffer: Buffer.alloc(900_000, 6) },
]);
await page.waitForTimeout(2500);
await shot('attach-progress');
await page.getByRole('button', { name: en ? 'Cancel site-video.mp4' : '取消 site-video.mp4' }).click();
await net.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
await page.locator('[data-attach-row=uploading]').waitFor({ state: 'detached', timeout: 60_000 });
await page.locator('.mw-nav-action').click();
await page.locator('.mw-editor-content').click();
await page.keyboard.type(en ? 'Hi all, ' : '大家好，');
await page.keyboard.press('Control+b');
await page.keyboard.type(en ? 'the report is attached.' : '报告见附件。');
await page.keyboard.press('Control+b');
await page.keyboard.press('Enter');
await page.locator('.mw-tool').nth(2).click();
await page.keyboard.type(en ? 'Revenue up 12%' : '收入增长 12%');
await page.keyboard.press('Enter');
await page.keyboard.type(en ? 'Costs flat' : '成本持平');
await shot('compose-filled');
await page.locator('.mw-send').click();
await shot('compose-errors');
await page.getByRole('button', { name: en ? 'Remove not-an-address' : '移除 not-an-address' }).click();
await page.locator('[data-option=timed] .mw-option-main').click();
await page.locator('.adm-picker').waitFor();
await shot('compose-timed-picker');
await page.locator('.adm-picker-header-button').last().click();
await page.locator('.mw-send').click();
await page.waitForURL(/write-result/);
await shot('write-result');
await page.goto(`${base}/#/pages/list/index?mid=1`);
await page.reload();
await page.locator('.mw-mail-row').first().waitFor();
await page.waitForTimeout(1500);
await shot('sent-list');
await page.locator('.mw-mail-row', { has: page.locator('[data-status=scheduled]') }).first().click();
await page.locator('.mw-scheduled-bar').waitFor();
await shot('read-scheduled');
await page.goBack();
// A mail still being delivered, when the run has one (it depends on the relay).
const sending = page.locator('.mw-mail-row', { has: page.locator('[data-status=sending]') }).first();
if (await sending.count()) {
  await sending.click();
  await page.locator('.mw-deliveries').waitFor();
  await page.locator('.mw-deliveries').scrollIntoViewIfNeeded();
  await shot('read-sent-deliveries');
}
await page.goto(`${base}/#/pages/list-tab/index`);
await page.reload();
const replied = page.locator('.mw-mail-row', { hasText: 'Project kickoff' }).first();
if (await replied.count()) {
  await replied.click();
  await page.locator('.mw-reply-bar').waitFor();
  await page.locator('.mw-reply-bar').scrollIntoViewIfNeeded();
  await shot('read-thread');
}

// Organise and find (issue 5): folders three deep, tags on mail, a note, then the
// folder, New folder, Mark as, search, batch and read screens. Safe to re-run:
// what exists already is looked up rather than created again.
type Envelope<T> = { code: number; data: T };
const session = (await (await fetch(`${base}/h5/login/h5`, { method: 'POST', body: new URLSearchParams({ email: 'alice@demo.test', password: 'demo1234' }) })).json()) as Envelope<{ token: string }>;
const call = async <T>(path: string, form?: Record<string, string>, query: Record<string, string> = {}): Promise<T> => {
  const url = `${base}/h5${path}?${new URLSearchParams({ ...query, t: session.data.token })}`;
  const res = (await (await fetch(url, form ? { method: 'POST', body: new URLSearchParams(form) } : {})).json()) as Envelope<T>;
  return res.data;
};
type Folder = { mid: string; name: string; parent?: string };
const folderNamed = async (name: string, parent?: string): Promise<Folder> => {
  const existing = (await call<{ custom: Folder[] }>('/mbox/index')).custom.find((f) => f.name === name);
  return existing ?? call<Folder>('/mboxop/create-folder', { name, ...(parent ? { parent } : {}) });
};
const [f1, f2, f3, f4] = en ? ['Projects', 'Clients', 'Acme Ltd', 'Receipts'] : ['项目', '客户', '华东区', '报销'];
const top = await folderNamed(f1!);
const mid2 = await folderNamed(f2!, top.mid);
await folderNamed(f3!, mid2.mid);
await folderNamed(f4!);
type Tag = { id: string; name: string; color: string };
const tagDefs: Array<[string, string]> = en
  ? [['Invoices', '#E5483F'], ['Follow up', '#F5A623'], ['Team', '#34B76C'], ['Travel', '#7B5CE0']]
  : [['发票', '#E5483F'], ['待跟进', '#F5A623'], ['团队', '#34B76C'], ['差旅', '#7B5CE0']];
const existingTags = (await call<{ list: Tag[] }>('/tag/list')).list;
const tags: Tag[] = [];
for (const [name, color] of tagDefs) tags.push(existingTags.find((t) => t.name === name) ?? (await call<Tag>('/tag/create', { name, color })));
const inbox = (await call<{ list: Array<{ id: string; subject: string }> }>('/mail/list', undefined, { mid: '0', page: '1', size: '20' })).list;
const quarterly = inbox.find((x) => x.subject.includes('季度')) ?? inbox[0]!;
await call('/mailop/tag', { ids: quarterly.id, tag: tags[0]!.id, on: '1' });
await call('/mailop/tag', { ids: quarterly.id, tag: tags[1]!.id, on: '1' });
if (inbox[0] && inbox[0].id !== quarterly.id) await call('/mailop/tag', { ids: inbox[0].id, tag: tags[2]!.id, on: '1' });
await call('/mailop/note', { mid: quarterly.id, note: en ? 'Check the Q3 numbers with finance before Friday.' : '周五前和财务核对第三季度数据。' });

await page.goto(`${base}/#/pages/list-tab/index`);
await page.reload();
await page.locator('.mw-mail-row .mw-tag').first().waitFor();
await shot('inbox-tags');
await page.goto(`${base}/#/pages/modules/dir-list/index`);
await page.locator(`.adm-list-item:has-text("${f3}")`).waitFor();
await shot('dir-list-custom');
await page.locator(`[data-folder-actions="${top.mid}"]`).click();
await shot('dir-list-actions');
await page.goto(`${base}/#/pages/modules/create-dir/index`);
await page.locator('input[name=folder-name]').fill(en ? 'Contracts' : '合同');
await page.locator('.mw-parent-list .adm-list-item', { hasText: f3! }).click();
await page.locator('button[type=submit]').click();
await shot('create-dir');
await page.goto(`${base}/#/pages/modules/tag-list/index`);
await page.locator('.mw-tag-list').waitFor();
await shot('tag-list');
await page.locator('.mw-tag-list .adm-list-item').first().click();
await page.locator('.mw-tag-editor').waitFor();
await shot('tag-edit');
await page.goto(`${base}/#/pages/list-tab/index`);
await page.reload();
await page.locator('.mw-mail-row').first().waitFor();
await page.locator('[data-action=edit]').click();
await page.locator('.mw-mail-row').nth(0).click();
await page.locator('.mw-mail-row').nth(2).click();
await page.locator('.mw-batch-bar button').first().waitFor();
await shot('batch');
await page.locator('[data-action=done]').click();
await page.goto(`${base}/#/pages/read-mail/index?mid=${quarterly.id}`);
await page.locator('.mw-note').waitFor();
await shot('read-tags-note');
// The read page's other actions sit in its More sheet.
await page.locator('.mw-read-actions [data-action=more]').click();
await page.locator('[data-action=mark-as]').click();
await page.locator('.mw-tag-list').waitFor();
await shot('tag-list-apply');
await page.goto(`${base}/#/pages/modules/search-mail/index`);
await page.locator('.mw-search-bar input').fill('季度');
await page.locator('.mw-search-bar input').press('Enter');
await page.locator('.mw-search-results .mw-mail-row').first().waitFor();
await shot('search-results');
await page.locator('.mw-search-bar .adm-input-clear').click();
await page.locator('.mw-history').waitFor();
await shot('search-history');

const cdp = await context.newCDPSession(page);
console.log('installability errors', JSON.stringify(await cdp.send('Page.getInstallabilityErrors')));
console.log('service worker', await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.active?.state ?? 'none')));
await page.setViewportSize({ width: 1280, height: 800 });
await page.goto(`${base}/#/pages/list-tab/index`);
await page.locator('.mw-mail-row').first().waitFor();
await shot('desktop-inbox');
await browser.close();
