import { expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { apiToken, phoneSuite } from '../helpers';

const suite = phoneSuite('session');

it('password-free entry: a token in the address logs in and lands on the inbox', async () => {
  const token = await apiToken('alice@demo.test');
  await suite.page.goto(`${BASE_URL}/?t=${encodeURIComponent(token)}&email=alice@demo.test`);
  await suite.page.waitForURL(/#\/pages\/list-tab\/index/);
  await suite.page.locator('.mw-mail-row').first().waitFor();
  // The token does not stay in the address bar.
  expect(suite.page.url()).not.toContain(token);
  expect(await suite.page.evaluate(() => localStorage.getItem('currentEmailName'))).toBe('"alice@demo.test"');
  expect(await suite.page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
});

it('an unknown token goes to the login page', async () => {
  await suite.page.evaluate(() => localStorage.clear());
  await suite.page.goto(`${BASE_URL}/?t=not-a-token&email=alice@demo.test`);
  await suite.page.waitForURL(/#\/pages\/login\/index/);
  await suite.page.locator('input[name=email]').waitFor();
});

it('logs out from settings: the session is gone and the tabs need login again', async () => {
  const token = await apiToken('alice@demo.test');
  await suite.page.goto(`${BASE_URL}/?t=${encodeURIComponent(token)}&email=alice@demo.test`);
  await suite.page.waitForURL(/#\/pages\/list-tab\/index/);
  await suite.page.locator('.mw-tabbar .adm-tab-bar-item', { hasText: 'Settings' }).click();
  await suite.page.waitForURL(/#\/pages\/setting\/index/);
  await suite.page.locator('.mw-account-email', { hasText: 'alice@demo.test' }).waitFor();
  await suite.page.getByRole('button', { name: 'Log out' }).click();
  await suite.page.locator('.adm-dialog').getByRole('button', { name: 'Log out' }).click();
  await suite.page.waitForURL(/#\/pages\/login\/index/);
  for (const key of ['token', 'currentEmailName', 'nowEmail']) {
    expect(await suite.page.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
  }
  await suite.page.goto(`${BASE_URL}/#/pages/list-tab/index`);
  await suite.page.waitForURL(/#\/pages\/login\/index/);
});
