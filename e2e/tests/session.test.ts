import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL } from '../env';
import { apiToken, launch, phone, screenshot } from '../helpers';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  ({ page } = await phone(browser));
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(({ onTestFailed, task }) => {
  onTestFailed(() => screenshot(page, `session-${task.name}`));
});

it('password-free entry: a token in the address logs in and lands on the inbox', async () => {
  const token = await apiToken('alice@demo.test');
  await page.goto(`${BASE_URL}/?t=${encodeURIComponent(token)}&email=alice@demo.test`);
  await page.waitForURL(/#\/pages\/list-tab\/index/);
  await page.locator('.mw-mail-row').first().waitFor();
  // The token does not stay in the address bar.
  expect(page.url()).not.toContain(token);
  expect(await page.evaluate(() => localStorage.getItem('currentEmailName'))).toBe('"alice@demo.test"');
  expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
});

it('an unknown token goes to the login page', async () => {
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${BASE_URL}/?t=not-a-token&email=alice@demo.test`);
  await page.waitForURL(/#\/pages\/login\/index/);
  await page.locator('input[name=email]').waitFor();
});

it('logs out from settings: the session is gone and the tabs need login again', async () => {
  const token = await apiToken('alice@demo.test');
  await page.goto(`${BASE_URL}/?t=${encodeURIComponent(token)}&email=alice@demo.test`);
  await page.waitForURL(/#\/pages\/list-tab\/index/);
  await page.locator('.mw-tabbar .adm-tab-bar-item', { hasText: 'Settings' }).click();
  await page.waitForURL(/#\/pages\/setting\/index/);
  await page.locator('.mw-account-email', { hasText: 'alice@demo.test' }).waitFor();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.locator('.adm-dialog').getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(/#\/pages\/login\/index/);
  for (const key of ['token', 'currentEmailName', 'nowEmail']) {
    expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
  }
  await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
  await page.waitForURL(/#\/pages\/login\/index/);
});
