import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { BASE_URL, WECHAT_PORT } from '../env';
import { api, login, phoneSuite, screenshot } from '../helpers';

// WeChat login in Chromium, against global-setup's stand-in of WeChat (its
// authorize page and code exchange, WECHAT_PORT): the e2e server runs with
// WeChat login on. The stand-in answers for one WeChat account, which this
// file binds to alice. There is no unbind route, so the binding stays for the
// rest of the run: no other file uses WeChat, and every run starts on a fresh
// database.

const suite = phoneSuite('wechat');
const UNBOUND = 'cannot operate without binding WeChat';

/** A clean start on our origin: no session, no WeChat marker. */
async function fresh(page: Page): Promise<void> {
  await page.goto(`${BASE_URL}/#/pages/login/index`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.reload();
}

/** On WeChat's authorize page (the stand-in), taps Allow or Deny; WeChat then sends the browser back to our start page. */
async function answerWechat(page: Page, choice: 'allow' | 'deny'): Promise<void> {
  await page.waitForURL(new RegExp(`^http://127\\.0\\.0\\.1:${WECHAT_PORT}/connect/oauth2/authorize\\?`));
  expect(await page.title()).toBe('authorize');
  await page.locator(`#${choice}`).click();
  await page.waitForURL((url) => url.origin === BASE_URL);
}

const tokenOf = async (page: Page) => JSON.parse((await page.evaluate(() => localStorage.getItem('token'))) ?? '""') as string;

it('shows "Log in with WeChat" on the login page while the server has WeChat login on', async () => {
  const { page } = suite;
  await fresh(page);
  await page.getByText('Log in with WeChat').waitFor();
  await screenshot(page, 'wechat-login-page');
});

it('refuses a WeChat account bound to no mailbox: the server says so, and the login page stays', async () => {
  const { page } = suite;
  await fresh(page);
  await page.getByText('Log in with WeChat').click();
  await answerWechat(page, 'allow');
  await page.getByText(UNBOUND).waitFor();
  await page.waitForURL(/#\/pages\/login\/index$/);
  // The code and state do not stay in the address bar, and nobody is logged in.
  expect(new URL(page.url()).search).toBe('');
  expect(await tokenOf(page)).toBe('');
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});

it('comes back to the login page when the user declines on WeChat', async () => {
  const { page } = suite;
  await fresh(page);
  await page.getByText('Log in with WeChat').click();
  await answerWechat(page, 'deny');
  await page.waitForURL(/#\/pages\/login\/index$/);
  expect(new URL(page.url()).search).toBe('');
  expect(await tokenOf(page)).toBe('');
});

it('binds WeChat to alice from the security page', async () => {
  const { page } = suite;
  await fresh(page);
  await login(page, 'alice@demo.test');
  await page.locator('.mw-tabbar .adm-tab-bar-item', { hasText: 'Settings' }).click();
  await page.locator('[data-row=security]').click();
  await page.waitForURL(/#\/pages\/modules\/setting-security\/index/);
  const status = page.locator('[data-testid=wechat-status]');
  await expect.poll(() => status.textContent()).toContain('Not bound');
  await page.locator('[data-testid=wechat-bind]').waitFor();
  await page.locator('[data-testid=wechat]').scrollIntoViewIfNeeded();
  await screenshot(page, 'wechat-security-not-bound');

  await page.locator('[data-testid=wechat-bind]').click();
  await answerWechat(page, 'allow');
  await page.waitForURL(/#\/pages\/modules\/setting-security\/index$/);
  await page.getByText('WeChat bound. You can now log in with WeChat.').waitFor();
  await page.locator('[data-testid=wechat-status][data-bound]').waitFor();
  expect(await status.textContent()).toBe('Bound');
  expect(await page.locator('[data-testid=wechat-bind]').textContent()).toBe('Change');
  expect(new URL(page.url()).search).toBe('');
  await page.locator('[data-testid=wechat]').scrollIntoViewIfNeeded();
  await screenshot(page, 'wechat-security-bound');
  const settings = await api<{ wechatBound: boolean }>('/setting/index', { token: await tokenOf(page) });
  expect(settings.wechatBound).toBe(true);
});

it('logs in to alice\'s inbox with WeChat, without a password', async () => {
  const { page } = suite;
  await fresh(page);
  await page.getByText('Log in with WeChat').click();
  await answerWechat(page, 'allow');
  await page.waitForURL(/#\/pages\/list-tab\/index/);
  await page.locator('.mw-mail-row').first().waitFor();
  expect(new URL(page.url()).search).toBe('');
  expect(await page.evaluate(() => localStorage.getItem('currentEmailName'))).toBe('"alice@demo.test"');
  const account = await api<{ email: string }>('/login/check', { token: await tokenOf(page) });
  expect(account.email).toBe('alice@demo.test');
});
