import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { simpleParser } from 'mailparser';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { enWest } from '../../apps/web/src/i18n/en-west';
import { enWestLife } from '../../apps/web/src/i18n/en-west-life';
import { zhWest } from '../../apps/web/src/i18n/zh-west';
import { zhWestLife } from '../../apps/web/src/i18n/zh-west-life';
import { api, apiToken, phoneSuite, screenshot, sendMail, smallTargets } from '../helpers';

// The west storefront (issue 19) at 390×844: register with the proof-of-work captcha and a
// mailed code, top up through the sandbox, buy a mailbox for shop.test with 5 seats, log in as
// its admin and receive an SMTP mail, renew, add seats, cancel, download the export (its .mbox
// holds that mail), undo; and screenshots of each west page in zh and en (kept in artifacts, out of git).

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

/**
 * Splits an mboxrd file (what the export writes) into its messages: each starts at a "From " line,
 * and one '>' is taken off every line that begins with >*"From " (the escape the writer added).
 */
function splitMboxrd(text: string): string[] {
  return text.split(/^From [^\n]*\n/m).slice(1).map((m) => m.replace(/^>(>*From )/gm, '$1').replace(/\n\n$/, '\n'));
}

/** Confirms the open antd-mobile dialog (its bold button), after checking what it says. */
async function confirmDialog(page: typeof suite.page, says: RegExp) {
  // A closed dialog may linger hidden for its animation: only the visible one counts.
  const dialog = page.locator('.adm-dialog-body').filter({ visible: true });
  await dialog.waitFor();
  expect(await dialog.locator('.adm-dialog-content').textContent()).toMatch(says);
  await dialog.locator('.adm-dialog-button-bold').click();
  await expect.poll(() => dialog.count()).toBe(0);
}

let companyId = '';

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
    await page.locator('input[name=amount]').fill('2000');
    await page.getByRole('button', { name: /Pay|去支付/ }).click();
    await page.getByTestId('west-sandbox-pay').click();
    await page.waitForURL(/#\/pages\/west\/user\/index/);
    await expect.poll(() => page.getByTestId('west-balance').textContent(), { timeout: 30_000 }).toBe('¥2000.00');

    await page.goto(`${BASE_URL}/#/pages/west/buy-mail/index`);
    await page.locator('input[name=domain]').fill('shop.test');
    await page.locator('input[name=companyName]').fill('Shop Co');
    await page.locator('input[name=adminPassword]').fill('shop-admin-1');
    await expect.poll(() => page.getByTestId('west-price').textContent(), { timeout: 30_000 }).toBe('¥300.00');
    await screenshot(page, 'west-buy-mail-filled');
    await page.getByRole('button', { name: /¥300\.00/ }).click();
    await page.waitForURL(/#\/pages\/west\/user\/index/);
    await expect.poll(() => page.getByTestId('west-balance').textContent(), { timeout: 30_000 }).toBe('¥1700.00');
    // Provisioning runs in the background; the order turns ready, and the admin can log in.
    await expect.poll(async () => {
      const r = await fetch(`${BASE_URL}/h5/login/h5`, { method: 'POST', body: new URLSearchParams({ email: 'admin@shop.test', password: 'shop-admin-1' }) });
      return ((await r.json()) as { code: number }).code;
    }, { timeout: 90_000, interval: 1_000 }).toBe(200);
    await page.reload();
    await page.getByText('shop.test').first().waitFor();
  });

  it('the admin receives an SMTP mail; the customer renews, adds seats, cancels, downloads the export holding that mail, and undoes', { timeout: 300_000 }, async () => {
    const page = suite.page;
    // The new admin logs in to the mail client (a mailbox session, apart from the west one).
    await page.goto(`${BASE_URL}/#/pages/login/index`);
    await page.locator('input[name=email]').fill('admin@shop.test');
    await page.locator('input[name=password]').fill('shop-admin-1');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/#\/pages\/list-tab\/index/);

    // Mail from another server, over SMTP on loopback. A line starting "From " makes the mbox escape it.
    const subject = `Order for Shop Co ${Date.now()}`;
    await sendMail({ from: '"Dana Diaz" <dana@partner.test>', to: 'admin@shop.test', subject, text: 'Hello Shop Co,\nFrom the warehouse: 12 boxes ship on Monday.\nDana' });
    const admin = (await api<{ token: string }>('/login/h5', { form: { email: 'admin@shop.test', password: 'shop-admin-1' } })).token;
    await expect.poll(async () => (await api<{ list: Array<{ subject: string }> }>('/mail/list', { token: admin, query: { mid: '0', size: '10' } }))
      .list.some((x) => x.subject === subject), { timeout: 60_000, interval: 500 }).toBe(true);
    await page.reload();
    await page.locator('.mw-mail-row', { hasText: subject }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'west-shop-admin-inbox');

    // Mailbox details: renew one year, from the later of now and the expiry (the expiry is a year out, so it moves a year on).
    await page.goto(`${BASE_URL}/#/pages/west/user/index`);
    const detail = page.locator('a[href*="mail-detail"]').first();
    companyId = new URL((await detail.getAttribute('href'))!.replace(/^#/, ''), BASE_URL).searchParams.get('id') ?? '';
    expect(companyId).toMatch(/^\d+$/);
    await detail.click();
    await page.waitForURL(/#\/pages\/west\/mail-detail\/index\?id=/);
    await expect.poll(() => page.getByTestId('life-seats').textContent(), { timeout: 30_000 }).toBe('1 / 5');
    const before = (await page.getByTestId('life-expiry').textContent())!;
    const year = Number(/\d{4}/.exec(before)![0]);
    expect(year).toBe(new Date().getFullYear() + 1);
    await page.getByRole('button', { name: /Renew|续费/ }).click();
    await confirmDialog(page, /¥300\.00/);
    await expect.poll(() => page.getByTestId('life-expiry').textContent(), { timeout: 30_000 }).toBe(before.replace(String(year), String(year + 1)));

    // Add 5 seats, pro rata for the two years left (5 × ¥60 × 730 or 731 days / 365).
    await page.getByRole('button', { name: /Add 5 seats|增加/ }).click();
    const dialog = page.locator('.adm-dialog-content').filter({ visible: true });
    await dialog.waitFor();
    const seatsPrice = Number(/¥(\d+\.\d\d)/.exec((await dialog.textContent())!)![1]);
    expect(seatsPrice).toBeGreaterThan(550);
    expect(seatsPrice).toBeLessThanOrEqual(605);
    await confirmDialog(page, /¥\d+\.\d\d/);
    await expect.poll(() => page.getByTestId('life-seats').textContent(), { timeout: 30_000 }).toBe('1 / 10');
    // The DNS records to publish: MX and DKIM, and SPF and DMARC as the domain checker suggests them.
    const records = await page.locator('.mw-life-record').evaluateAll((els) => els.map((el) => `${el.firstElementChild?.textContent} = ${el.querySelector('code')?.textContent}`));
    expect(records).toEqual([
      expect.stringMatching(/^MX shop\.test = 10 \S+\.$/), expect.stringMatching(/^TXT \w+\._domainkey\.shop\.test = v=DKIM1; k=rsa; p=/),
      expect.stringMatching(/^TXT shop\.test = v=spf1 /), expect.stringMatching(/^TXT _dmarc\.shop\.test = v=DMARC1; p=quarantine/),
    ]);
    await screenshot(page, 'west-mail-detail-renewed');

    // The ledger signs every amount before the currency: a debit reads -¥300.00, never ¥-300.00.
    await page.locator('.adm-nav-bar-back').click();
    await page.waitForURL(/#\/pages\/west\/user\/index/);
    const left = 170_000 - 30_000 - Math.round(seatsPrice * 100);
    const leftText = `¥${(left / 100).toFixed(2)}`;
    await expect.poll(() => page.getByTestId('west-balance').textContent(), { timeout: 30_000 }).toBe(leftText);
    const amounts = await page.getByTestId('west-ledger-amount').allTextContents();
    expect(amounts).toEqual(expect.arrayContaining(['+¥2000.00', '-¥300.00', `-¥${seatsPrice.toFixed(2)}`]));
    expect(amounts.filter((a) => a.includes('¥-'))).toEqual([]);

    // Second verification with an authenticator: the personal centre shows the QR, the key and the
    // otpauth link; a code from the key turns it on, and a later one (the next step) turns it off.
    await page.getByRole('button', { name: /Set up an authenticator|设置身份验证器/ }).click();
    await page.getByTestId('west-totp-qr').waitFor();
    const secret = (await page.getByTestId('west-totp-secret').textContent())!.replace(/\s/g, '');
    expect(new URL((await page.getByTestId('west-totp-uri').textContent())!).searchParams.get('secret')).toBe(secret);
    await page.getByTestId('west-totp-uri').scrollIntoViewIfNeeded();
    await screenshot(page, 'west-totp-setup');
    const totp = (ms = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + ms });
    await page.locator('input[name=totp-code]').fill(totp());
    await page.getByTestId('west-totp-enable').click();
    await expect.poll(() => page.getByTestId('west-totp-state').textContent()).toMatch(/Authenticator app: on|已开启/);
    await page.getByRole('button', { name: /^(Turn off|关闭)$/ }).click();
    await page.locator('input[name=totp-code]').fill(totp(30_000));
    await page.locator('[data-testid=west-totp] .adm-button-danger').click();
    await expect.poll(() => page.getByTestId('west-totp-state').textContent()).toMatch(/sent by mail|邮件发送/);

    // Cancel: reached from the personal centre; the balance left is shown, and cancelling starts the export.
    await page.getByRole('link', { name: /Cancel account|注销账号/ }).click();
    await page.waitForURL(/#\/pages\/west\/remove-account\/index/);
    await expect.poll(() => page.getByTestId('life-balance').textContent(), { timeout: 30_000 }).toBe(leftText);
    await page.getByRole('button', { name: /Cancel my account|注销我的账号/ }).click();
    await confirmDialog(page, /30/);
    await page.getByTestId('life-pending').waitFor({ timeout: 30_000 });
    // The archive is built by the background job runner; the page polls until its link appears.
    const link = page.getByTestId('life-export').locator('a[download]');
    await link.waitFor({ timeout: 120_000 });
    await screenshot(page, 'west-remove-account-pending');
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/h5\/west\/export\/download\?id=\d+&e=\d+&s=[\w-]+$/);
    // The signature is the credential: a link with another signature is refused.
    const sig = /s=([\w-]+)$/.exec(href)![1]!;
    const forged = await fetch(`${BASE_URL}${href.replace(`s=${sig}`, `s=${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`)}`);
    expect(await forged.json()).toMatchObject({ code: 403, reason: 'export.link_invalid' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^mailwing-export-\d+\.zip$/);
    const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    const names = Object.keys(files);
    const inboxName = names.find((n) => n.endsWith('/admin@shop.test/mail/Inbox.mbox'));
    expect(inboxName, names.join(', ')).toBeDefined();
    expect(names.some((n) => n.endsWith('/admin@shop.test/contacts.vcf'))).toBe(true);
    const mails = await Promise.all(splitMboxrd(Buffer.from(files[inboxName!]!).toString('latin1')).map((m) => simpleParser(Buffer.from(m, 'latin1'))));
    const got = mails.find((m) => m.subject === subject);
    expect(got, mails.map((m) => m.subject).join(' | ')).toBeDefined();
    expect(got!.from?.value[0]?.address).toBe('dana@partner.test');
    expect(got!.text).toContain('\nFrom the warehouse: 12 boxes ship on Monday.');

    // Undo within the grace period: nothing pending any more, and the company is still there.
    await page.getByRole('button', { name: /Undo|撤销/ }).click();
    await page.getByTestId('life-pending').waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('button', { name: /Cancel my account|注销我的账号/ }).waitFor();
    await expect.poll(async () => {
      const r = await fetch(`${BASE_URL}/h5/login/h5`, { method: 'POST', body: new URLSearchParams({ email: 'admin@shop.test', password: 'shop-admin-1' }) });
      return ((await r.json()) as { code: number }).code;
    }).toBe(200);
  });

  it('shows every west page titled in zh and en, with buttons of at least 44 px, and screenshots them', { timeout: 240_000 }, async () => {
    const page = suite.page;
    const routes = [
      ['login/index', 'westLoginTitle'], ['login/verify?way=email&to=b***@demo.test&ticket=x', 'westVerifyTitle'], ['register/index', 'westRegisterTitle'],
      ['agree/index', 'westAgreeTitle'], ['user/index', 'westUserTitle'], ['recharge/index', 'westRechargeTitle'], ['buy-mail/index', 'westBuyTitle'],
      [`mail-detail/index?id=${companyId}`, 'lifeDetailTitle'], ['remove-account/index', 'lifeRemoveTitle'],
    ] as const;
    expect(companyId).not.toBe('');
    for (const lang of ['zh', 'en'] as const) {
      const texts: Record<string, unknown> = lang === 'zh' ? { ...zhWest, ...zhWestLife } : { ...enWest, ...enWestLife };
      await setLang(lang);
      for (const [r, title] of routes) {
        await page.goto(`${BASE_URL}/#/pages/west/${r}`);
        await page.reload();
        await page.locator('.mw-west').first().waitFor();
        await expect.poll(() => page.locator('.adm-nav-bar-title').first().textContent(), { timeout: 10_000 }).toBe(texts[title]);
        const small = await smallTargets(page, '.mw-west button');
        expect(small, `${lang} ${r}`).toEqual([]);
        // No loading toast over the picture.
        await expect.poll(() => page.locator('.adm-toast-mask').count(), { timeout: 10_000 }).toBe(0);
        await page.waitForTimeout(300);
        await screenshot(page, `west-${lang}-${r.split('?')[0]!.replace('/', '-')}`);
        // The body scrolls itself, so a full-page picture stops at the fold: take the end of long pages too.
        if (await page.locator('.mw-body').evaluate((el) => el.scrollHeight > el.clientHeight + 10)) {
          await page.locator('.mw-body').evaluate((el) => el.scrollTo(0, el.scrollHeight));
          await page.waitForTimeout(200);
          await screenshot(page, `west-${lang}-${r.split('?')[0]!.replace('/', '-')}-end`);
        }
      }
    }
  });
});
