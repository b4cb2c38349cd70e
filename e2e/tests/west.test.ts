import { describe, expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { enWest } from '../../apps/web/src/i18n/en-west';
import { zhWest } from '../../apps/web/src/i18n/zh-west';
import { api, apiToken, phoneSuite, screenshot } from '../helpers';

// The west storefront (issue 19) at 390×844: register with the proof-of-work captcha and a
// mailed code, top up through the sandbox, buy a mailbox for shop.test with 5 seats, and
// screenshots of each west page in zh and en (kept in artifacts, out of git).

const suite = phoneSuite('west');
const CUSTOMER = 'bob@demo.test';

/** The newest code mail in a mailbox, read through the API as its owner would. */
async function latestCode(mailboxToken: string): Promise<string> {
  for (let i = 0; i < 60; i++) {
    const list = await api<{ list: Array<{ id: string; subject: string }> }>('/mail/list', { token: mailboxToken, query: { mid: '0', size: '10' } });
    const hit = list.list.find((x) => x.subject === 'Mailwing 验证码 / Verification code');
    if (hit) {
      const mail = await api<{ text: string }>('/read/index', { token: mailboxToken, query: { mid: hit.id } });
      const code = /Verification code: (\d{6})/.exec(mail.text)?.[1];
      if (code) return code;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('no code mail arrived');
}

async function setLang(lang: 'zh' | 'en') {
  await suite.page.evaluate((l) => { localStorage.setItem('language', l); }, lang);
}

describe('west storefront', () => {
  it('registers with the captcha and a mailed code, tops up in the sandbox, buys shop.test with 5 seats', { timeout: 240_000 }, async () => {
    const page = suite.page;
    const bob = await apiToken(CUSTOMER);
    await page.goto(`${BASE_URL}/#/pages/west/register/index`);
    await page.locator('input[name=email]').fill(CUSTOMER);
    await page.locator('input[name=password]').fill('store-pass-1');
    await page.getByTestId('west-captcha').click();
    await page.getByTestId('west-captcha').filter({ hasText: /Verified|验证通过/ }).waitFor({ timeout: 60_000 });
    await page.getByTestId('west-send-code').click();
    const code = await latestCode(bob);
    await page.locator('input[name=code]').fill(code);
    await page.locator('input[name=agree]').check();
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/#\/pages\/west\/user\/index/);
    await expect.poll(() => page.getByTestId('west-balance').textContent(), { timeout: 30_000 }).toBe('¥0.00');

    await page.goto(`${BASE_URL}/#/pages/west/recharge/index`);
    await page.locator('input[name=amount]').fill('500');
    await page.getByRole('button', { name: /Pay|去支付/ }).click();
    await page.getByTestId('west-sandbox-pay').click();
    await page.waitForURL(/#\/pages\/west\/user\/index/);
    await expect.poll(() => page.getByTestId('west-balance').textContent(), { timeout: 30_000 }).toBe('¥500.00');

    await page.goto(`${BASE_URL}/#/pages/west/buy-mail/index`);
    await page.locator('input[name=domain]').fill('shop.test');
    await page.locator('input[name=companyName]').fill('Shop Co');
    await page.locator('input[name=adminPassword]').fill('shop-admin-1');
    await expect.poll(() => page.getByTestId('west-price').textContent(), { timeout: 30_000 }).toBe('¥300.00');
    await screenshot(page, 'west-buy-mail-filled');
    await page.getByRole('button', { name: /¥300\.00/ }).click();
    await page.waitForURL(/#\/pages\/west\/user\/index/);
    await expect.poll(() => page.getByTestId('west-balance').textContent(), { timeout: 30_000 }).toBe('¥200.00');
    // Provisioning runs in the background; the order turns ready, and the admin can log in.
    await expect.poll(async () => {
      const r = await fetch(`${BASE_URL}/h5/login/h5`, { method: 'POST', body: new URLSearchParams({ email: 'admin@shop.test', password: 'shop-admin-1' }) });
      return ((await r.json()) as { code: number }).code;
    }, { timeout: 90_000, interval: 1_000 }).toBe(200);
    await page.reload();
    await page.getByText('shop.test').first().waitFor();
  });

  it('shows every west page titled in zh and en, with buttons of at least 44 px, and screenshots them', { timeout: 240_000 }, async () => {
    const page = suite.page;
    const routes = [
      ['login/index', 'westLoginTitle'], ['login/verify?way=email&to=b***@demo.test&ticket=x', 'westVerifyTitle'], ['register/index', 'westRegisterTitle'],
      ['agree/index', 'westAgreeTitle'], ['user/index', 'westUserTitle'], ['recharge/index', 'westRechargeTitle'], ['buy-mail/index', 'westBuyTitle'],
    ] as const;
    for (const lang of ['zh', 'en'] as const) {
      const texts = lang === 'zh' ? zhWest : enWest;
      await setLang(lang);
      for (const [r, title] of routes) {
        await page.goto(`${BASE_URL}/#/pages/west/${r}`);
        await page.reload();
        await page.locator('.mw-west').first().waitFor();
        await expect.poll(() => page.locator('.adm-nav-bar-title').first().textContent(), { timeout: 10_000 }).toBe(texts[title]);
        const small = await page.locator('.mw-west button').evaluateAll((els) => els
          .map((el) => ({ text: (el.textContent ?? '').trim(), h: el.getBoundingClientRect().height }))
          .filter((b) => b.h > 0 && b.h < 44));
        expect(small, `${lang} ${r}`).toEqual([]);
        await page.waitForTimeout(300);
        await screenshot(page, `west-${lang}-${r.split('?')[0]!.replace('/', '-')}`);
      }
    }
  });
});
