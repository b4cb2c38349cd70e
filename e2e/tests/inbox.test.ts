import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiToken, inboxUnread, launch, login, phone, pullDown, screenshot, sendMail, tabBadge } from '../helpers';

// Flows 1–3 of issue 3, in order on one page: they build on each other.
describe('inbox as alice', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  const subject = `Quarterly numbers ${Date.now()}`;

  beforeAll(async () => {
    browser = await launch();
    ({ page } = await phone(browser));
    token = await apiToken('alice@demo.test');
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(() => screenshot(page, `inbox-${task.name}`));
  });

  it('logs in and shows the seeded inbox with the unread badge', async () => {
    await login(page, 'alice@demo.test');
    const rows = page.locator('.mw-mail-row');
    expect(await rows.count()).toBeGreaterThan(0);
    // The newest mail on the server heads the list. (Not the seeded welcome mail by name: the
    // suite shares one server, and files that ran earlier may have pushed it off page 1.)
    const newest = (await api<{ list: Array<{ subject: string }> }>('/mail/list', { token, query: { mid: '0', page: '1', size: '20' } })).list[0]!.subject;
    await expect.poll(() => rows.first().textContent()).toContain(newest);
    expect(await rows.first().textContent()).toContain(newest);
    const unread = await inboxUnread(token);
    expect(unread).toBeGreaterThan(0);
    await expect.poll(() => tabBadge(page)).toBe(String(unread));
    // Unread rows are bold.
    const firstUnread = page.locator('.mw-mail-row.is-unread .mw-mail-from').first();
    expect(Number(await firstUnread.evaluate((el) => getComputedStyle(el).fontWeight))).toBeGreaterThanOrEqual(600);
  });

  it('shows a mail sent over SMTP after pull-to-refresh (if live updates have not already), and the badge rises', async () => {
    const before = await inboxUnread(token);
    await sendMail({
      from: '"Carol Chen" <carol@partner.test>',
      to: 'alice@demo.test',
      subject,
      text: 'The numbers are attached.',
      attachments: [{ filename: 'numbers.csv', content: 'quarter,revenue\nQ3,1200\n', contentType: 'text/csv' }],
    });
    await expect.poll(() => inboxUnread(token), { timeout: 15_000 }).toBe(before + 1);
    // Live updates may already have shown it (organise.test.ts covers that);
    // pulling down must show it either way.
    await pullDown(page);
    const row = page.locator('.mw-mail-row', { hasText: subject });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getAttribute('class')).toContain('is-unread');
    await expect.poll(() => tabBadge(page)).toBe(String(before + 1));
  });

  it('opens the mail: it is read, the badge falls, and its attachment downloads', async () => {
    const before = await inboxUnread(token);
    await page.locator('.mw-mail-row', { hasText: subject }).click();
    await page.waitForURL(/#\/pages\/read-mail\/index\?mid=/);
    await page.locator('.mw-read-subject', { hasText: subject }).waitFor();
    expect(await page.locator('.mw-read-name').textContent()).toBe('Carol Chen');
    await expect.poll(() => inboxUnread(token)).toBe(before - 1);

    const item = page.locator('.mw-attachments .adm-list-item', { hasText: 'numbers.csv' });
    await item.waitFor();
    // The row opens the preview (issue 14); its download button saves the file.
    const [download] = await Promise.all([page.waitForEvent('download'), item.locator('.mw-download').click()]);
    expect(download.suggestedFilename()).toBe('numbers.csv');
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path, 'utf8')).toContain('Q3,1200');

    await page.goBack();
    await page.waitForURL(/#\/pages\/list-tab\/index/);
    const row = page.locator('.mw-mail-row', { hasText: subject });
    await row.waitFor();
    expect(await row.getAttribute('class')).not.toContain('is-unread');
    const expected = before - 1 > 0 ? String(before - 1) : null;
    await expect.poll(() => tabBadge(page)).toBe(expected);
  });
});
