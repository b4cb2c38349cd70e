import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiToken, launch, login, phone, screenshot, sendMail, waitUntil } from '../helpers';

interface Summary {
  id: string;
  subject: string;
  star: boolean;
  read: boolean;
}

// The read page's actions and the folder pages, as admin (the other files use alice and bob).
describe('mail actions and folders', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  let folderId: string;
  const stamp = Date.now();
  const older = `Action older ${stamp}`;
  const newer = `Action newer ${stamp}`;

  const folderList = (mid: string) => api<{ list: Summary[] }>('/mail/list', { token, query: { mid, page: '1', size: '50' } }).then((r) => r.list);
  const find = async (mid: string, subject: string) => (await folderList(mid)).find((m) => m.subject === subject);
  // Issue 14: the bottom bar leads with Reply, Reply all and Forward; these are in its "more" sheet.
  const sheetItem = (name: string) => page.locator('.adm-action-sheet-button-item', { hasText: name });
  // A sheet closed by an action animates out before it leaves the DOM; the next one must not
  // open over it (two sheets on screen, and the closing one's mask takes the taps).
  const sheetsGone = () => page.waitForFunction(() => [...document.querySelectorAll('.adm-action-sheet-popup')].every((el) => el.getClientRects().length === 0));
  const button = (name: string) => ({
    click: async () => {
      await page.locator('[data-action=more]').click();
      await sheetItem(name).click();
      await sheetsGone();
    },
    waitFor: async () => {
      await page.locator('[data-action=more]').click();
      await sheetItem(name).waitFor();
      await page.locator('.adm-action-sheet-cancel .adm-action-sheet-button-item').click();
      await sheetsGone();
    },
  });

  beforeAll(async () => {
    browser = await launch();
    ({ page } = await phone(browser));
    token = await apiToken('admin@demo.test');
    folderId = (await api<{ mid: string }>('/mboxop/create-folder', { token, form: { name: `Projects ${stamp}` } })).mid;
    await sendMail({ from: 'dave@partner.test', to: 'admin@demo.test', subject: older, text: 'first' });
    await sendMail({ from: 'dave@partner.test', to: 'admin@demo.test', subject: newer, text: 'second' });
    await waitUntil(async () => (await find('0', newer)) !== undefined);
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(() => screenshot(page, `actions-${task.name}`));
  });

  it('stars a mail and steps to the next one', async () => {
    await login(page, 'admin@demo.test');
    await page.locator('.mw-mail-row', { hasText: newer }).click();
    await page.locator('.mw-read-subject', { hasText: newer }).waitFor();
    await button('Star').click();
    await button('Unstar').waitFor();
    expect((await find('0', newer))?.star).toBe(true);
    // Next is the older mail of the same folder.
    await page.getByLabel('Next').click();
    await page.locator('.mw-read-subject', { hasText: older }).waitFor();
  });

  it('marks a mail unread and returns to the list', async () => {
    await button('Unread').click();
    await page.waitForURL(/#\/pages\/list-tab\/index/);
    const row = page.locator('.mw-mail-row', { hasText: older });
    await row.waitFor();
    expect(await row.getAttribute('class')).toContain('is-unread');
    expect((await find('0', older))?.read).toBe(false);
  });

  it('moves a mail to a folder of its own and shows it there', async () => {
    await page.locator('.mw-mail-row', { hasText: older }).click();
    await button('Move').click();
    await page.waitForURL(/#\/pages\/modules\/choose-dir\/index/);
    await page.locator(`.adm-list-item[data-mid="${folderId}"]`).click();
    await page.waitForURL(/#\/pages\/list-tab\/index/);
    await expect.poll(() => page.locator('.mw-mail-row', { hasText: older }).count()).toBe(0);
    expect(await find(folderId, older)).toBeDefined();

    await page.locator('.mw-tabbar .adm-tab-bar-item', { hasText: 'My Mailbox' }).click();
    await page.locator(`.adm-list-item[data-mid="${folderId}"]`).click();
    await page.waitForURL(new RegExp(`#/pages/list/index\\?mid=${folderId}`));
    await page.locator('.mw-mail-row', { hasText: older }).waitFor();
  });

  it('deletes a mail into Deleted', async () => {
    await page.locator('.mw-mail-row', { hasText: older }).click();
    await button('Delete').click();
    await page.waitForURL(new RegExp(`#/pages/list/index\\?mid=${folderId}`));
    await expect.poll(async () => (await find('4', older)) !== undefined).toBe(true);
  });

  it('reports junk into Spam, and the folder switch shows Spam', async () => {
    await page.goto(page.url().replace(/#.*/, '#/pages/list-tab/index'));
    await page.locator('.mw-mail-row', { hasText: newer }).click();
    await button('Junk').click();
    await page.waitForURL(/#\/pages\/list-tab\/index/);
    await expect.poll(async () => (await find('3', newer)) !== undefined).toBe(true);

    await page.locator('.mw-nav-action', { hasText: 'Folders' }).click();
    await page.waitForURL(/#\/pages\/modules\/dir-list\/index/);
    await page.locator('.adm-list-item[data-mid="3"]').click();
    await page.waitForURL(/#\/pages\/list-tab\/index/);
    await page.locator('.mw-nav .adm-nav-bar-title', { hasText: 'Spam' }).waitFor();
    await page.locator('.mw-mail-row', { hasText: newer }).waitFor();
  });

  it('pages the list: 20 rows first, more on scroll, then "no more"', async () => {
    for (let i = 1; i <= 22; i++) await sendMail({ from: 'erin@partner.test', to: 'admin@demo.test', subject: `Bulk ${stamp} #${i}`, text: `bulk ${i}` });
    await expect.poll(async () => (await find('0', `Bulk ${stamp} #22`)) !== undefined, { timeout: 20_000 }).toBe(true);
    await page.goto(page.url().replace(/#.*/, '#/pages/modules/dir-list/index'));
    await page.locator('.adm-list-item[data-mid="0"]').click();
    await page.waitForURL(/#\/pages\/list-tab\/index/);
    const rows = page.locator('.mw-mail-row');
    await expect.poll(() => rows.count()).toBe(20);
    await page.locator('.mw-load-more').scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count()).toBeGreaterThan(20);
    await page.locator('.mw-load-more', { hasText: 'no more' }).scrollIntoViewIfNeeded({ timeout: 20_000 });
    const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
