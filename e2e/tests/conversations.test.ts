import { afterAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MailList } from '@mailwing/shared';
import { BASE_URL } from '../env';
import { api, apiToken, login, phoneSuite, screenshot, sendMail, smallTargets } from '../helpers';

// Issue 14, scope 2: a thread shows as one row in the list and opens stacked, older mails
// collapsed to sender and snippet, the quote folded behind a toggle; the setting turns it off.

const suite = phoneSuite('conversations');
const stamp = Date.now();
const USER = 'bob@demo.test';
const subject = `Venue ${stamp}`;

// Language and the setting are put back even when a test fails half-way: later files use this user.
afterAll(async () => {
  const token = await apiToken(USER);
  await api('/setting/modifylanguage', { token, query: { language: 'en' } }).catch(() => undefined);
  await api('/setting/app-setting', { token, form: { conversationView: '1' } }).catch(() => undefined);
});

async function useLanguage(page: Page, lang: 'zh' | 'en'): Promise<void> {
  await api('/setting/modifylanguage', { token: await apiToken(USER), query: { language: lang } });
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
}

const id = (n: number) => `<venue-${stamp}-${n}@partner.test>`;

it('a thread of four mails shows as one row with its count and people', async () => {
  const { page } = suite;
  const date = Date.now() - 4 * 3600_000;
  await sendMail({ from: 'Carol Chen <carol@partner.test>', to: USER, subject, messageId: id(1), date: new Date(date), text: 'Shall we book the lakeside hall for the offsite?' });
  await sendMail({
    from: 'Dave Li <dave@partner.test>', to: USER, cc: 'carol@partner.test', subject: `Re: ${subject}`, messageId: id(2), inReplyTo: id(1), references: [id(1)],
    date: new Date(date + 3600_000), text: 'The hall is free on Friday.\n\nOn Mon, Carol Chen <carol@partner.test> wrote:\n> Shall we book the lakeside hall for the offsite?',
  });
  await sendMail({
    from: 'Carol Chen <carol@partner.test>', to: USER, subject: `回复：${subject}`, messageId: id(3), inReplyTo: id(2), references: [id(1), id(2)],
    date: new Date(date + 2 * 3600_000), text: '好的，周五见。\n\n------------------ 原始邮件 ------------------\n发件人: Dave Li\nThe hall is free on Friday.',
  });
  await sendMail({
    from: 'Dave Li <dave@partner.test>', to: USER, subject: `Re: ${subject}`, messageId: id(4), inReplyTo: id(3), references: [id(1), id(2), id(3)],
    date: new Date(date + 3 * 3600_000),
    html: '<p>Booked for Friday, 10:00. See you there.</p><p>On Tue, Carol Chen wrote:</p><blockquote><p>QUOTED-OLD-TEXT 好的，周五见。</p></blockquote>',
  });
  const token = await apiToken(USER);
  const mails = (await api<MailList>('/mail/list', { token, query: { mid: '0', page: '1', size: '50' } })).list.filter((m) => m.subject.includes(subject));
  expect(mails).toHaveLength(4);
  // The two oldest were read elsewhere: they stack collapsed; the third stays unread and opens.
  const oldest = mails.slice(-2).map((m) => m.id).join(',');
  await api('/mailop/read', { token, form: { ids: oldest, read: '1' } });

  await login(page, USER);
  const rows = page.locator('.mw-mail-row', { hasText: subject });
  await rows.first().waitFor({ timeout: 15_000 });
  expect(await rows.count()).toBe(1);
  const row = rows.first();
  expect(await row.locator('.mw-count').textContent()).toBe('4');
  expect(await row.locator('.mw-mail-from').textContent()).toMatch(/Carol Chen, Dave Li/);
  expect(await row.locator('.mw-mail-snippet').textContent()).toContain('Booked for Friday');
  expect(await row.getAttribute('class')).toContain('is-unread');
  await screenshot(page, 'conversations-en-list');
});

it('opens stacked: older mails collapsed, an unread one open, the quote folded behind a toggle', async () => {
  const { page } = suite;
  await page.locator('.mw-mail-row', { hasText: subject }).click();
  await page.locator('.mw-stack-count', { hasText: 'Conversation (4)' }).waitFor();
  const cards = page.locator('.mw-stack-card');
  expect(await cards.count()).toBe(3);
  // Read ones show their sender and snippet only; the unread third one is open and loads its body.
  expect(await cards.nth(0).getAttribute('class')).not.toContain('is-open');
  expect(await cards.nth(0).locator('.mw-stack-snippet').textContent()).toContain('lakeside hall');
  await cards.nth(2).locator('.mw-read-text', { hasText: '好的，周五见。' }).waitFor();
  // Its Foxmail-style quote is folded.
  expect(await cards.nth(2).locator('.mw-read-text').textContent()).not.toContain('原始邮件');
  // The newest mail's HTML quote is folded too, in the sandboxed frame.
  const frame = page.frameLocator('.mw-read-body iframe.mw-mail-frame');
  await frame.locator('text=Booked for Friday').waitFor();
  expect(await frame.locator('body').textContent()).not.toContain('QUOTED-OLD-TEXT');
  expect(await page.locator('.mw-read-body iframe.mw-mail-frame').getAttribute('sandbox')).toBe('allow-same-origin');
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
  await screenshot(page, 'conversations-en-read');
  const toggle = page.locator('.mw-read-body .mw-quote-toggle');
  await toggle.click();
  await frame.locator('text=QUOTED-OLD-TEXT').waitFor();
  expect(await toggle.textContent()).toContain('Hide quoted text');
  // A collapsed mail opens in place when tapped.
  await cards.nth(0).locator('.mw-stack-head').click();
  await cards.nth(0).locator('.mw-read-text', { hasText: 'lakeside hall' }).waitFor();
  expect(await smallTargets(page, '.mw-stack-head, .mw-quote-toggle, .mw-stack-open')).toEqual([]);
  await screenshot(page, 'conversations-en-read-expanded');
  // The whole conversation was read by opening it.
  const token = await apiToken(USER);
  const row = (await api<MailList>('/mail/list', { token, query: { mid: '0', page: '1', size: '50', view: 'conv' } })).list.find((m) => m.subject.includes(subject))!;
  expect(row.conv).toMatchObject({ count: 4, unread: 0 });
});

it('shows the same in Chinese, and the setting page', async () => {
  const { page } = suite;
  await useLanguage(page, 'zh');
  await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
  await page.reload();
  const row = page.locator('.mw-mail-row', { hasText: subject });
  await row.waitFor();
  await screenshot(page, 'conversations-zh-list');
  await row.click();
  await page.locator('.mw-stack-count', { hasText: '会话（4）' }).waitFor();
  await page.locator('.mw-quote-toggle', { hasText: '显示引用内容' }).first().waitFor();
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
  await screenshot(page, 'conversations-zh-read');
  await page.goto(`${BASE_URL}/#/pages/setting/index`);
  await page.locator('[data-row=conv]', { hasText: '会话模式' }).click();
  await page.locator('[data-conversation-view=on] .mw-check').waitFor();
  await screenshot(page, 'conversations-zh-setting');
  await useLanguage(page, 'en');
});

it('turning conversation view off lists every mail again; on again, one row', async () => {
  const { page } = suite;
  await page.goto(`${BASE_URL}/#/pages/modules/setting-conversation/index`);
  await page.reload();
  await page.locator('[data-conversation-view=off]').click();
  await page.locator('[data-conversation-view=off] .mw-check').waitFor();
  await screenshot(page, 'conversations-en-setting');
  await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
  const rows = page.locator('.mw-mail-row', { hasText: subject });
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
  await page.goto(`${BASE_URL}/#/pages/modules/setting-conversation/index`);
  await page.locator('[data-conversation-view=on]').click();
  await page.locator('[data-conversation-view=on] .mw-check').waitFor();
  await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
});

it('deletes the whole conversation from the read page', async () => {
  const { page } = suite;
  await page.locator('.mw-mail-row', { hasText: subject }).click();
  await page.locator('.mw-stack-count').waitFor();
  await page.locator('.mw-read-actions [data-action=more]').click();
  await page.locator('.adm-action-sheet-button-item', { hasText: 'Delete conversation' }).click();
  await page.waitForURL(/#\/pages\/list-tab\/index/);
  const token = await apiToken(USER);
  await expect.poll(async () => (await api<MailList>('/mail/list', { token, query: { mid: '4', page: '1', size: '50' } })).list.filter((m) => m.subject.includes(subject)).length).toBe(4);
  expect(await page.locator('.mw-mail-row', { hasText: subject }).count()).toBe(0);
});
