import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL } from '../env';
import { api, apiToken, launch, login, phone, screenshot, sendMail, waitUntil } from '../helpers';

interface Summary { id: string; subject: string; star: boolean }

// Issue 16 in Chromium at 390×844: write a filter rule, see its dry run before saving,
// then mail arriving over SMTP is filed by it. As admin, with stamped names.
describe('filter rules', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  const stamp = Date.now();
  const short = String(stamp).slice(-6);
  const word = `Ruled${short}`;
  const folder = `Filed ${short}`;

  const list = (mid: string) => api<{ list: Summary[] }>('/mail/list', { token, query: { mid, page: '1', size: '100' } }).then((r) => r.list);

  beforeAll(async () => {
    browser = await launch();
    ({ page } = await phone(browser));
    token = await apiToken('admin@demo.test');
    await api('/mboxop/create-folder', { token, form: { name: folder } });
    for (const i of [1, 2]) await sendMail({ from: 'olga@partner.test', to: 'admin@demo.test', subject: `${word} earlier ${i}`, text: 'x' });
    await login(page, 'admin@demo.test');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a rule with a dry run, and SMTP mail is filed by it', async () => {
    await page.goto(`${BASE_URL}/#/pages/setting/index`);
    await page.locator('[data-row=filter]').click();
    await page.waitForURL(/setting-filter\/index/);
    await page.locator('[data-action=add-rule]').click();
    await page.waitForURL(/setting-filter-edit\/index/);
    await page.locator('#rule-name').fill(`File ${word}`);
    await page.locator('[data-condition=subject] input').fill(word);
    const dry = page.locator('[data-dry-run]');
    await dry.filter({ hasText: /Matches 2 of the last \d+ mails/ }).waitFor();
    await page.locator('[data-action=read] select').selectOption('move');
    const folders = await api<{ custom: { mid: string; name: string }[] }>('/mbox/index', { token });
    const mid = folders.custom.find((f) => f.name === folder)!.mid;
    await page.locator('[data-action=move] select').nth(1).selectOption(mid);
    await screenshot(page, 'rules-editor-en');
    await page.locator('[data-action=save-rule]').click();
    await page.waitForURL(/setting-filter-edit\/index\?id=\d+/);

    await sendMail({ from: 'olga@partner.test', to: 'admin@demo.test', subject: `${word} new`, text: 'x' });
    await waitUntil(async () => (await list(mid)).some((m) => m.subject === `${word} new`));
    expect((await list('0')).some((m) => m.subject === `${word} new`)).toBe(false);
    await page.goto(`${BASE_URL}/#/pages/list/index?mid=${mid}`);
    await page.locator('.mw-mail-row', { hasText: `${word} new` }).waitFor();

    // The same rule over the Inbox as a job: the two earlier mails follow, with progress shown.
    await page.goBack();
    await page.locator('[data-action=run-rule]').click();
    await page.locator('[data-job-state=done]').waitFor({ timeout: 20_000 });
    await waitUntil(async () => (await list(mid)).filter((m) => m.subject.startsWith(word)).length === 3);
  });
});
