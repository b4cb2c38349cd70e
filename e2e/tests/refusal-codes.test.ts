import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { api, apiToken, login, phoneSuite, screenshot } from '../helpers';

// Issue 15, scope 1: refusals that used to say only "not valid" now carry their own reason
// code, and the client words it in the account's language. Two of them, reachable in the UI:
// a POP3 login with a space (input.spaces) and a migration login with a space (the same code).

const suite = phoneSuite('refusal-codes');
const words = {
  zh: '不能包含空格。',
  en: /must not contain spaces/i,
} as const;
// What input.invalid says: the wording these refusals had before they got their own code.
const generic = {
  zh: /请检查输入的内容/,
  en: /check what you (typed|entered)/i,
} as const;

async function setLanguage(email: string, language: 'zh' | 'en'): Promise<void> {
  await api('/setting/modifylanguage', { token: await apiToken(email), query: { language } });
}
async function shot(page: Page, name: string): Promise<void> {
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
  await screenshot(page, name);
}
const input = (page: Page, testId: string) => page.locator(`[data-testid=${testId}]`).locator('xpath=descendant-or-self::input').first();

afterAll(async () => {
  await setLanguage('alice@demo.test', 'en').catch(() => undefined);
  await setLanguage('admin@demo.test', 'en').catch(() => undefined);
});

describe.each(['zh', 'en'] as const)('refusals worded by their own code (%s)', (language) => {
  it('a POP3 login with a space', async () => {
    const { page } = suite;
    await setLanguage('alice@demo.test', language);
    await login(page, 'alice@demo.test');
    await page.goto(`${BASE_URL}/#/pages/modules/setting-pop-edit/index`);
    await input(page, 'collect-user').fill('ann smith');
    await input(page, 'collect-password').fill('secret');
    await input(page, 'collect-host').fill('pop.example.com');
    await page.locator('[data-testid=collect-test]').click();
    await expect.poll(() => page.locator('[data-testid=collect-result]').textContent()).toMatch(words[language]);
    // The specific words, not the generic "check what you typed" of input.invalid.
    const said = await page.locator('[data-testid=collect-result]').textContent();
    expect(said).toMatch(words[language]);
    expect(said).not.toMatch(generic[language]);
    await shot(page, `refusal-codes-${language}-collect`);
  }, 60_000);

  it('a migration login with a space', async () => {
    const { page } = suite;
    await setLanguage('admin@demo.test', language);
    await login(page, 'admin@demo.test', { waitForMail: false });
    await page.goto(`${BASE_URL}/#/pages/admin/migrate/index`);
    await page.locator('.mw-migrate').waitFor();
    const inputs = page.locator('.mw-migrate input:not([type=password])');
    await inputs.first().fill('imap.example.com');
    await page.locator('.mw-migrate .adm-list-item').filter({ has: page.locator('input[autocomplete=off]') }).locator('input').fill('ann smith');
    await page.locator('.mw-migrate input[type=password]').fill('secret');
    await page.locator('.mw-migrate button').filter({ hasText: language === 'zh' ? /测试|检测|连接/ : /test/i }).first().click();
    await expect.poll(() => page.locator('.mw-migrate-error').first().textContent()).toMatch(words[language]);
    const said = await page.locator('.mw-migrate-error').first().textContent();
    expect(said).toMatch(words[language]);
    expect(said).not.toMatch(generic[language]);
    await shot(page, `refusal-codes-${language}-migrate`);
  }, 60_000);
});
