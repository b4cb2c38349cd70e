import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { BASE_URL, DOVECOT_FILE } from '../env';
import { api, apiToken, login, phoneSuite, screenshot } from '../helpers';

// Issue 16, scope 5 in Chromium: add a POP3 mailbox on the local Dovecot (global-setup)
// through the settings pages, and see its mail arrive in the Inbox.

const suite = phoneSuite('collect');
const peer = JSON.parse(readFileSync(DOVECOT_FILE, 'utf8')) as { host: string; ports: { pop3: number }; user: string; password: string };
/** A screenshot once the request spinner and toasts have gone. */
async function shot(page: Page, name: string): Promise<void> {
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
  await screenshot(page, name);
}
const input = (page: Page, testId: string) => page.locator(`[data-testid=${testId}]`).locator('xpath=descendant-or-self::input').first();

afterAll(async () => {
  const token = await apiToken('alice@demo.test');
  await api('/setting/modifylanguage', { token, query: { language: 'en' } }).catch(() => undefined);
  const list = await api<{ list: { id: string }[] }>('/collect/list', { token });
  for (const a of list.list) await api('/collect/delete', { token, form: { id: a.id } });
});

it('sets up a POP3 mailbox against the local Dovecot and its mail arrives in the Inbox', async () => {
  const { page } = suite;
  await login(page, 'alice@demo.test');
  await page.goto(`${BASE_URL}/#/pages/setting/index`);
  await page.locator('[data-row=collect]').click();
  await page.waitForURL(/setting-pop\/index/);
  await page.locator('[data-testid=collect-add]').first().click();
  await page.waitForURL(/setting-pop-edit\/index/);
  // A preset fills server, port and security.
  await page.locator('[data-testid=collect-presets]').getByText('Gmail').click();
  expect(await input(page, 'collect-host').inputValue()).toBe('pop.gmail.com');
  expect(await input(page, 'collect-port').inputValue()).toBe('995');
  await shot(page, 'collect-en-edit');

  await input(page, 'collect-user').fill(peer.user);
  await input(page, 'collect-password').fill('wrong-password');
  await input(page, 'collect-host').fill(peer.host);
  await input(page, 'collect-port').fill(String(peer.ports.pop3));
  await page.locator('[data-testid=collect-tls]').getByText('STARTTLS').click();
  await page.locator('[data-testid=collect-test]').click();
  await expect.poll(() => page.locator('[data-testid=collect-result]').textContent()).toContain('Login refused');
  await shot(page, 'collect-en-refused');

  await input(page, 'collect-password').fill(peer.password);
  await page.locator('[data-testid=collect-test]').click();
  await expect.poll(() => page.locator('[data-testid=collect-result]').textContent()).toContain('Connected. 2 mails');
  await page.locator('[data-testid=collect-save]').click();
  await page.waitForURL(/setting-pop\/index/);
  // A new account is due at once, so the scheduled run may have it already ("busy"): either way it gets there.
  await page.locator('[data-testid=collect-check]').first().click();
  await expect.poll(async () => {
    const text = await page.locator('[data-testid=collect-last]').first().textContent();
    if (!text?.includes('Last check')) await page.reload();
    return text;
  }, { timeout: 40_000 }).toMatch(/Last check .*: [02] new/);
  expect(await page.locator('[data-testid=collect-error]').count()).toBe(0);
  await shot(page, 'collect-en-list');

  await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
  await expect.poll(() => page.locator('.mw-mail-row').allTextContents().then((t) => t.join('\n'))).toContain('From the other mailbox 2');
  await shot(page, 'collect-en-inbox');
});

it('shows the pages in Chinese', async () => {
  const { page } = suite;
  const token = await apiToken('alice@demo.test');
  await api('/setting/modifylanguage', { token, query: { language: 'zh' } });
  await login(page, 'alice@demo.test');
  await page.goto(`${BASE_URL}/#/pages/setting/index`);
  await expect.poll(() => page.locator('[data-row=collect]').textContent()).toContain('收取外部邮箱');
  await shot(page, 'collect-zh-settings');
  await page.locator('[data-row=collect]').click();
  await expect.poll(() => page.locator('[data-testid=collect-check]').first().textContent()).toContain('立即收取');
  await shot(page, 'collect-zh-list');
  await page.locator('[data-collect]').first().click();
  await page.waitForURL(/setting-pop-edit\/index/);
  await expect.poll(() => page.locator('[data-testid=collect-save]').textContent()).toContain('测试并保存');
  await shot(page, 'collect-zh-edit');
});
