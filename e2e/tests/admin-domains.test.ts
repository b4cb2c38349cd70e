import { afterAll, expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { api, apiToken, login, phoneSuite, screenshot } from '../helpers';

// Issue 17, the admin console at 390×844: the admin opens it from Settings, adds a domain
// and sees each record's state. The e2e server's DNS is the global setup's loopback stand-in,
// where every name is NXDOMAIN, so the states here are "missing"; ok / mismatch /
// syntax-error / unverifiable are covered by apps/server/test/admin-domains.test.ts.
// Screenshots of every console page in en and zh.
const suite = phoneSuite('admin-domains');

const domain = `e2e-${Date.now().toString(36)}.test`;
let token = '';
let before = 'en';

afterAll(async () => {
  if (!token) return;
  await api('/admin/domains/remove', { token, form: { domain } }).catch(() => undefined);
  await api('/setting/modifylanguage', { token, query: { language: before } }).catch(() => undefined);
  await api('/admin/branding', { token, form: { name: '', color: '', logo: '' } }).catch(() => undefined);
});

it('lets the admin add a domain and see its record states; the console pages in en and zh', async () => {
  const { page } = suite;
  token = await apiToken('admin@demo.test');
  before = (await api<{ language: string | null }>('/setting/index', { token })).language ?? 'en';
  for (const lang of ['en', 'zh'] as const) {
    await api('/setting/modifylanguage', { token, query: { language: lang } });
    if (lang === 'en') await login(page, 'admin@demo.test', { waitForMail: false });
    await page.evaluate((l) => localStorage.setItem('language', l), lang);
    await page.goto(`${BASE_URL}/#/pages/setting/index`);
    await page.reload();
    const entry = page.locator('[data-group=admin] [data-row=adminConsole]');
    await entry.scrollIntoViewIfNeeded();
    await screenshot(page, `admin-${lang}-settings-entry`);
    await entry.click();
    await page.waitForURL(/#\/pages\/admin\/index\/index/);
    await page.locator('[data-section=domains]').waitFor();
    expect(await page.locator('[data-section]').count()).toBeGreaterThanOrEqual(3);
    await screenshot(page, `admin-${lang}-home`);

    await page.locator('[data-section=domains]').click();
    await page.waitForURL(/#\/pages\/admin\/domains\/index/);
    await page.locator('[data-domain="demo.test"]').waitFor();
    if (lang === 'en') {
      await page.locator('input[name=domain]').fill(` ${domain.toUpperCase()}. `);
      await page.getByRole('button', { name: 'Add domain' }).click();
    }
    const card = page.locator(`[data-domain="${domain}"]`);
    await card.waitFor();
    for (const kind of ['ownership', 'mx', 'spf', 'dkim', 'dmarc']) {
      await expect.poll(() => card.locator(`[data-record=${kind}]`).getAttribute('data-state')).toBe('missing');
    }
    // What to publish is shown in full, with a copy button for each value.
    await expect.poll(() => card.locator('[data-record=ownership] code').first().textContent()).toBe(`_mailwing.${domain}`);
    expect(await card.locator('[data-record=dkim] button').count()).toBe(2);
    await screenshot(page, `admin-${lang}-domains`);

    await page.goto(`${BASE_URL}/#/pages/admin/welcome/index`);
    await page.locator('#wel-subject').waitFor();
    await screenshot(page, `admin-${lang}-welcome`);
    await page.goto(`${BASE_URL}/#/pages/admin/login-page/index`);
    await page.locator('#lp-name').waitFor();
    await screenshot(page, `admin-${lang}-login-page`);
  }
});

it('shows the company\'s name, logo and colour on the login page for ?domain=', async () => {
  const { page } = suite;
  const logo = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  await api('/admin/branding', { token, form: { name: 'Demo 公司', color: '#c0392b', logo } });
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${BASE_URL}/#/pages/login/index?domain=demo.test`);
  await page.reload();
  await expect.poll(() => page.locator('.mw-login-name').textContent()).toBe('Demo 公司');
  expect(await page.locator('.mw-login-brand img').getAttribute('src')).toBe(logo);
  await screenshot(page, 'admin-login-branded');
});

it('shows an ordinary user no way into the console, and the server refuses them', async () => {
  const { page } = suite;
  await login(page, 'bob@demo.test', { waitForMail: false });
  await page.goto(`${BASE_URL}/#/pages/setting/index`);
  await page.locator('[data-row=version]').waitFor();
  expect(await page.locator('[data-row=adminConsole]').count()).toBe(0);
  await page.goto(`${BASE_URL}/#/pages/admin/domains/index`);
  await page.locator('.mw-state').first().waitFor();
  expect(await page.locator('[data-domain]').count()).toBe(0);
});
