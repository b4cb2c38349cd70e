import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, apiToken, login, phoneSuite, screenshot } from '../helpers';
import { ARTIFACTS, BASE_URL } from '../env';

// The network disk (issue 18) in Chromium at 390×844: an upload survives a reload
// (tus-js-client's stored URL, resumed when the same file is picked again), and a
// disk file goes out as a large-attachment link that the recipient downloads without a session.
const suite = phoneSuite('disk');

const MB = 1024 * 1024;
mkdirSync(ARTIFACTS, { recursive: true });
// A real file on disk, so both picks carry the same lastModified (part of tus-js-client's fingerprint).
const FILE = join(ARTIFACTS, 'disk-e2e.bin');
const DATA = randomBytes(24 * MB);
writeFileSync(FILE, DATA);

interface Node { id: string; name: string; size: number }

describe('network disk', () => {
  it('uploads a file, survives a reload mid-upload, and finishes it by resuming', async () => {
    const { page } = suite;
    await login(page, 'alice@demo.test');
    await page.goto(`${BASE_URL}/#/pages/mbox/mbox-list`);
    await page.locator('[data-row=app-disk]').click();
    await page.locator('[data-action=disk-upload]').waitFor();

    // A slow link, so the reload lands while bytes are on their way.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 50 * MB, uploadThroughput: 3 * MB });
    await page.locator('input[data-field=disk-file]').setInputFiles(FILE);
    const token = await apiToken('alice@demo.test');
    // Wait until the server holds part of the upload.
    await expect.poll(async () => page.locator('[data-upload="disk-e2e.bin"][data-phase=send]').count(), { timeout: 60_000 }).toBe(1);
    await page.waitForTimeout(3000);
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.locator('[data-pending]').waitFor();
    await screenshot(page, 'disk-en-unfinished');

    // Picking the same file again resumes it: the first progress shown is already past zero.
    await page.locator('input[data-field=disk-file]').setInputFiles(FILE);
    const row = page.locator('[data-upload="disk-e2e.bin"]');
    await row.locator('xpath=.').waitFor();
    await expect.poll(async () => row.getAttribute('data-phase'), { timeout: 90_000 }).toBe('done');
    await page.locator('[data-node="disk-e2e.bin"]').waitFor();
    await screenshot(page, 'disk-en-list');

    const list = await api<{ list: Node[] }>('/disk/list', { token, query: { size: '100' } });
    const files = list.list.filter((n) => n.name.startsWith('disk-e2e'));
    expect(files).toHaveLength(1);
    expect(files[0]!.size).toBe(DATA.length);
    const res = await fetch(`${BASE_URL}/h5/disk/download?id=${files[0]!.id}&t=${token}`);
    expect(createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex')).toBe(createHash('sha256').update(DATA).digest('hex'));
  });

  it('sends a disk file as a large attachment; the recipient downloads it through the link without a session', async () => {
    const { page } = suite;
    // Ends on the spec's write-result page: the no-undo case (issue 14).
    await api('/setting/undo-send', { token: await apiToken('alice@demo.test'), form: { seconds: '0' } });
    await page.goto(`${BASE_URL}/#/pages/write/index`);
    await page.locator('#mw-addr-to').fill('bob@demo.test,');
    await page.locator('.mw-chip[data-address="bob@demo.test"]').waitFor();
    await page.locator('#mw-subject').fill('Large file for you');
    await page.locator('[data-option=disk]').click();
    await page.locator('[data-node="disk-e2e.bin"]').click();
    await page.locator('[data-dialog=disk-share]').waitFor();
    await screenshot(page, 'disk-en-share-dialog');
    await page.locator('[data-action=share-create]').click();
    await page.waitForURL(/pages\/write\/index/);
    await page.locator('.mw-editor-content a', { hasText: 'disk-e2e.bin' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('#mw-subject').inputValue()).toBe('Large file for you');
    await screenshot(page, 'disk-en-compose-link');
    await page.locator('.mw-send').click();
    await page.waitForURL(/write-result/, { timeout: 30_000 });

    const bob = await apiToken('bob@demo.test');
    let html = '';
    await expect.poll(async () => {
      const inbox = await api<{ list: { id: string; subject: string }[] }>('/mail/list', { token: bob, query: { mid: '0', page: '1', size: '20' } });
      const mail = inbox.list.find((x) => x.subject === 'Large file for you');
      if (!mail) return false;
      const read = await api<{ html: string; size: number }>('/read/index', { token: bob, query: { mid: mail.id } });
      html = read.html;
      // The mail carries a link, not the 24 MB.
      return read.size < 64 * 1024;
    }, { timeout: 30_000 }).toBe(true);
    const link = /href="([^"]*pages\/modules\/disk\/share\?s=[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    expect(link).toBeTruthy();

    // The recipient: a fresh context, no session.
    const other = await page.context().browser()!.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', acceptDownloads: true });
    const p2 = await other.newPage();
    await p2.goto(link!);
    await p2.locator('[data-share-name="disk-e2e.bin"]').waitFor();
    await screenshot(p2, 'disk-en-share-page');
    const [download] = await Promise.all([p2.waitForEvent('download'), p2.locator('[data-action=share-download]').click()]);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    expect(createHash('sha256').update(readFileSync(path)).digest('hex')).toBe(createHash('sha256').update(DATA).digest('hex'));
    await other.close();
  });

  it('shows the spec\'s name rule in the user\'s language, and the bin; screenshots in zh and en', async () => {
    const { page } = suite;
    for (const lang of ['zh', 'en'] as const) {
      // The user's language is a setting the app takes from the server on load (other suites change alice's).
      await api('/setting/modifylanguage', { token: await apiToken('alice@demo.test'), query: { language: lang } });
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.goto(`${BASE_URL}/#/pages/modules/disk/index`);
      await page.reload();
      await page.locator('[data-node="disk-e2e.bin"]').waitFor();
      await screenshot(page, `disk-${lang}-list`);
      await page.locator('[data-action=disk-new-folder]').click();
      await page.locator('[data-field=disk-name] input').fill('a:b');
      await page.locator('[data-action=disk-name-ok]').click();
      const error = await page.locator('.mw-disk-error').textContent();
      expect(error).toBe(lang === 'zh' ? '文件名不能包含 / ? : * " < > |' : 'File names may not contain / ? : * " < > |');
      await screenshot(page, `disk-${lang}-name-error`);
      await page.locator('[data-field=disk-name] input').fill(`Folder ${lang}`);
      await page.locator('[data-action=disk-name-ok]').click();
      await page.locator(`[data-node="Folder ${lang}"]`).waitFor();
      await page.locator('[data-node="disk-e2e.bin"]').click();
      await page.locator('.adm-action-sheet-button-item', { hasText: lang === 'zh' ? '分享链接' : 'Share link' }).click();
      await page.locator('[data-dialog=disk-share]').waitFor();
      await screenshot(page, `disk-${lang}-share-dialog`);
      await page.locator('[data-action=share-create]').click();
      await page.locator('[data-share-link]').waitFor();
      await screenshot(page, `disk-${lang}-share-created`);
      await page.goto(`${BASE_URL}/#/pages/modules/disk/index?view=bin`);
      await page.locator('.mw-disk-empty, .mw-load-more').first().waitFor();
      await screenshot(page, `disk-${lang}-bin`);
    }
  });
});
