import { afterAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BASE_URL } from '../env';
import { api, apiToken, login, phoneSuite, screenshot, sendMail } from '../helpers';

// Issue 14, scopes 1, 3 and 4: a wide newsletter fits the phone with its own CSS, the
// read page's bottom bar leads with Reply, and a sent mail can be undone back to compose.

const suite = phoneSuite('read-write');

// The account's language is put back even when a test fails half-way in Chinese: later
// files log in as the same user and expect English.
afterAll(async () => {
  await api('/setting/modifylanguage', { token: await apiToken(USER), query: { language: 'en' } }).catch(() => undefined);
});
const stamp = Date.now();
const USER = 'admin@demo.test';

// A 640 px newsletter laid out by its <style>, with CSS that tries to load, import or overlay.
const NEWSLETTER = `<html><head><style>
@import url(https://tracker.example/a.css);
body { background: #eeeeee; margin: 0; }
.wrap { width: 640px; margin: 0 auto; background: #ffffff; }
.hero { background-color: rgb(0, 170, 119); color: #ffffff; padding: 24px; font-size: 28px; }
.cols td { width: 320px; vertical-align: top; padding: 12px; }
.beacon { background: url(https://tracker.example/open.gif); }
.overlay { position: fixed; top: 0; left: 0; width: 100%; height: 100%; background: #ff0000; z-index: 9999; }
</style></head><body>
<table class="wrap" width="640" cellpadding="0" cellspacing="0"><tr><td class="hero">双十一特惠 Weekly deals</td></tr>
<tr><td><table class="cols"><tr><td class="beacon">左栏：新品上架，全场包邮。</td><td>Right column: last column text ends here END</td></tr></table></td></tr></table>
<div class="overlay">Please log in again</div>
</body></html>`;

async function useLanguage(page: Page, token: string, lang: 'zh' | 'en'): Promise<void> {
  await api('/setting/modifylanguage', { token, query: { language: lang } });
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
}

const frameOf = (page: Page) => page.frames().find((f) => f.parentFrame() !== null && f.url() === 'about:srcdoc')!;

it('a 640 px newsletter is fully visible without panning, with its own CSS, and nothing loads or overlays', async () => {
  const { page } = suite;
  const subject = `Newsletter ${stamp}`;
  await sendMail({ from: 'news@partner.test', to: USER, subject, html: NEWSLETTER, text: 'Weekly deals' });
  const remote: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('tracker.example')) remote.push(r.url());
  });
  await login(page, USER);
  const row = page.locator('.mw-mail-row', { hasText: subject });
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await page.frameLocator('iframe.mw-mail-frame').locator('text=END').waitFor();
  const frame = frameOf(page);
  await expect.poll(() => frame.evaluate(() => document.querySelector<HTMLElement>('.mw-mail')!.style.transform)).toMatch(/scale\(0\.\d+\)/);

  const fit = await frame.evaluate(() => {
    const view = document.documentElement;
    const wrapper = document.querySelector<HTMLElement>('.mw-mail')!;
    const end = [...document.querySelectorAll('td')].find((td) => td.textContent?.includes('END'))!;
    const hero = document.querySelector('.hero')!;
    const overlay = document.querySelector('.overlay')!;
    return {
      viewWidth: view.clientWidth,
      scrollWidth: view.scrollWidth,
      wrapperRight: wrapper.getBoundingClientRect().right,
      endRight: end.getBoundingClientRect().right,
      heroBackground: getComputedStyle(hero).backgroundColor,
      heroWidth: hero.getBoundingClientRect().width,
      overlayPosition: getComputedStyle(overlay).position,
      bodyBackground: getComputedStyle(wrapper).backgroundColor,
    };
  });
  // Scaled to the frame: the right column's end is on screen, and there is nothing to pan to.
  expect(fit.viewWidth).toBeLessThanOrEqual(390);
  expect(fit.scrollWidth).toBeLessThanOrEqual(fit.viewWidth);
  expect(fit.wrapperRight).toBeLessThanOrEqual(fit.viewWidth + 1);
  expect(fit.endRight).toBeLessThanOrEqual(fit.viewWidth + 1);
  // Its CSS applies: the hero's colour, the 640 px layout (scaled), body → the wrapper.
  expect(fit.heroBackground).toBe('rgb(0, 170, 119)');
  expect(fit.heroWidth).toBeGreaterThan(fit.viewWidth * 0.9);
  expect(fit.bodyBackground).toBe('rgb(238, 238, 238)');
  // The overlay stays in the flow, and the frame is as tall as the mail (no inner scroll).
  expect(fit.overlayPosition).not.toBe('fixed');
  const frameBox = (await page.locator('iframe.mw-mail-frame').boundingBox())!;
  expect(frameBox.x + frameBox.width).toBeLessThanOrEqual(390);
  expect(remote).toEqual([]);

  // Double tap zooms to the mail's own size, pannable inside the frame; again goes back.
  await page.frameLocator('iframe.mw-mail-frame').locator('.hero').dblclick();
  await expect.poll(() => frame.evaluate(() => document.querySelector<HTMLElement>('.mw-mail')!.style.transform)).toBe('');
  expect(await frame.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(true);
  await page.frameLocator('iframe.mw-mail-frame').locator('.hero').dblclick();
  await expect.poll(() => frame.evaluate(() => document.querySelector<HTMLElement>('.mw-mail')!.style.transform)).toMatch(/scale\(0\.\d+\)/);
  await screenshot(page, 'read-write-en-newsletter');

  // Dark mode: the mail is rendered inverted (its images back to their own colours), readable on dark.
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await frame.evaluate(() => getComputedStyle(document.querySelector('.mw-mail')!).filter)).toContain('invert');
  await screenshot(page, 'read-write-en-newsletter-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

it('replies from the bottom bar: a Reply page with the cursor in the body above the quote', async () => {
  const { page } = suite;
  const bar = page.locator('.mw-read-actions');
  for (const action of ['reply', 'reply-all', 'forward', 'more']) {
    const box = (await bar.locator(`[data-action=${action}]`).boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
  }
  await bar.locator('[data-action=more]').click();
  await page.locator('.adm-action-sheet-button-item', { hasText: 'Star' }).waitFor();
  await screenshot(page, 'read-write-en-more-sheet');
  await page.locator('.adm-action-sheet-cancel .adm-action-sheet-button-item').click();

  await bar.locator('[data-action=reply]').click();
  await page.waitForURL(/#\/pages\/write\/index\?reply=/);
  await page.locator('.mw-nav .adm-nav-bar-title', { hasText: 'Reply' }).waitFor();
  await page.locator('.mw-editor-content blockquote').waitFor();
  await expect.poll(() => page.evaluate(() => {
    const sel = window.getSelection();
    const quote = document.querySelector('.mw-editor-content blockquote');
    if (!sel?.anchorNode || !quote || !document.activeElement?.closest('.mw-editor-content')) return 'not in the body';
    return quote.compareDocumentPosition(sel.anchorNode) & Node.DOCUMENT_POSITION_PRECEDING ? 'above the quote' : 'below the quote';
  })).toBe('above the quote');
  await page.keyboard.type('Thanks, see you there.');
  expect(await page.locator('.mw-editor-content p').first().textContent()).toBe('Thanks, see you there.');
  await screenshot(page, 'read-write-en-reply');
});

it('sends with an Undo toast instead of a result page; Undo brings the mail back to compose, nothing sent', async () => {
  const { page } = suite;
  const token = await apiToken(USER);
  await api('/setting/undo-send', { token, form: { seconds: '30' } });
  const subject = `Re: Newsletter ${stamp}`;
  await page.locator('.mw-send').click();
  const toast = page.locator('.mw-undo-toast');
  await toast.waitFor();
  // Back on the read page, not on a result page.
  await page.waitForURL(/#\/pages\/read-mail\/index/);
  await screenshot(page, 'read-write-en-undo-toast');
  await toast.locator('.mw-undo-button').click();
  await page.waitForURL(/#\/pages\/write\/index\?draft=/);
  await expect.poll(() => page.locator('#mw-subject').inputValue()).toBe(subject);
  await page.locator('.mw-editor-content', { hasText: 'Thanks, see you there.' }).waitFor();
  const list = async (mid: string) => (await api<{ list: { subject: string }[] }>('/mail/list', { token, query: { mid, page: '1', size: '50' } })).list;
  expect((await list('2')).some((m) => m.subject === subject)).toBe(true);
  expect((await list('1')).some((m) => m.subject === subject)).toBe(false);
  await screenshot(page, 'read-write-en-undone-compose');
});

it('a refused recipient is red in its field, in the UI language', async () => {
  const { page } = suite;
  await page.locator('#mw-addr-to').fill('nobody-here@demo.test,');
  await page.locator('.mw-send').click();
  const chip = page.locator('.mw-chip.is-refused[data-address="nobody-here@demo.test"]');
  await chip.waitFor();
  await page.getByRole('alert').filter({ hasText: 'nobody-here@demo.test: No such mailbox' }).waitFor();
  await screenshot(page, 'read-write-en-refused');
});

it('screenshots in zh: newsletter, bottom bar, reply, undo toast, refused recipient, and the undo setting in both languages', async () => {
  const { page } = suite;
  const token = await apiToken(USER);
  await useLanguage(page, token, 'zh');
  const mails = await api<{ list: { id: string; subject: string }[] }>('/mail/list', { token, query: { mid: '0', page: '1', size: '50' } });
  const news = mails.list.find((m) => m.subject === `Newsletter ${stamp}`)!;
  await page.goto(`${BASE_URL}/#/pages/read-mail/index?mid=${news.id}`);
  await page.reload();
  await page.frameLocator('iframe.mw-mail-frame').locator('text=END').waitFor();
  await page.locator('.mw-read-actions [data-action=reply]', { hasText: '回复' }).waitFor();
  await screenshot(page, 'read-write-zh-newsletter');
  await page.locator('.mw-read-actions [data-action=more]').click();
  await page.locator('.adm-action-sheet-button-item', { hasText: '删除' }).waitFor();
  await screenshot(page, 'read-write-zh-more-sheet');
  await page.locator('.adm-action-sheet-cancel .adm-action-sheet-button-item').click();
  await page.locator('.mw-read-actions [data-action=reply]').click();
  await page.locator('.mw-nav .adm-nav-bar-title', { hasText: '回复' }).waitFor();
  await page.locator('.mw-editor-content blockquote').waitFor();
  await page.keyboard.type('谢谢，届时见。');
  await screenshot(page, 'read-write-zh-reply');
  await page.locator('.mw-send').click();
  await page.locator('.mw-undo-toast', { hasText: '撤销' }).waitFor();
  await screenshot(page, 'read-write-zh-undo-toast');
  await page.locator('.mw-undo-button').click();
  await page.waitForURL(/#\/pages\/write\/index\?draft=/);
  await page.locator('#mw-addr-to').fill('nobody-here@demo.test,');
  await page.locator('.mw-send').click();
  await page.getByRole('alert').filter({ hasText: 'nobody-here@demo.test：该邮箱不存在' }).waitFor();
  await screenshot(page, 'read-write-zh-refused');

  for (const lang of ['zh', 'en'] as const) {
    await useLanguage(page, token, lang);
    await page.goto(`${BASE_URL}/#/pages/modules/setting-undo-send/index`);
    await page.reload();
    await page.locator('[data-seconds="30"] .mw-check').waitFor();
    await screenshot(page, `read-write-${lang}-undo-setting`);
  }
  await page.locator('[data-seconds="5"]').click();
  await expect.poll(async () => (await api<{ seconds: number }>('/setting/undo-send', { token })).seconds).toBe(5);
});
