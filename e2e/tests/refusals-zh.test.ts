import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BASE_URL } from '../env';
import { api, apiToken, login, phoneSuite, screenshot } from '../helpers';

// Issue 15: a Chinese session sees the server's refusals in Chinese, worded by their reason
// codes, never the server's English sentence.
const english = /incorrect|no such mailbox|not found|Login account error/i;

async function noEnglish(page: Page): Promise<void> {
  expect(await page.locator('body').textContent()).not.toMatch(english);
}

describe('refusals in a Chinese session', () => {
  const suite = phoneSuite('refusals-zh');

  it('a wrong password, an unknown colleague and a missing mail are said in Chinese', async () => {
    const page = suite.page;
    await page.goto(`${BASE_URL}/#/pages/login/index`);
    await page.evaluate(() => localStorage.setItem('language', 'zh'));
    await page.reload();
    await page.locator('input[name=email]').fill('alice@demo.test');
    await page.locator('input[name=password]').fill('not-the-password');
    await page.locator('button[type=submit]').click();
    await page.getByText('登录账号错误：地址或密码不正确。').waitFor();
    await noEnglish(page);
    await screenshot(page, 'refusals-zh-login');

    // The account's own language wins after login: Chinese for this test, English again after.
    const token = await apiToken('alice@demo.test');
    await api('/setting/modifylanguage', { token, query: { language: 'zh' } });
    try {
      await login(page, 'alice@demo.test');
      await page.goto(`${BASE_URL}/#/pages/write/index`);
      await page.locator('#mw-addr-to').fill('david.wang@demo.test,');
      await page.locator('.mw-chip[data-address="david.wang@demo.test"]').waitFor();
      await page.locator('#mw-subject').fill('你好');
      await page.locator('.mw-editor-content').click();
      await page.keyboard.type('正文');
      await page.locator('.mw-send').click();
      await page.locator('.mw-chip.is-refused[data-address="david.wang@demo.test"]').waitFor();
      await page.getByText('david.wang@demo.test：该邮箱不存在').first().waitFor();
      await noEnglish(page);
      await screenshot(page, 'refusals-zh-unknown-recipient');

      await page.goto(`${BASE_URL}/#/pages/read-mail/index?mid=987654321`);
      await page.getByText(/该邮件不存在|无法打开这封邮件/).first().waitFor();
      await noEnglish(page);
      await screenshot(page, 'refusals-zh-missing-mail');
    } finally {
      await api('/setting/modifylanguage', { token, query: { language: 'en' } });
    }
  }, 120_000);
});
