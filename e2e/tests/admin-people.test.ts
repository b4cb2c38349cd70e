import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BASE_URL, DEMO_PASSWORD, MX_DIR } from '../env';
import { enPeople } from '../../apps/web/src/i18n/en-people';
import { zhPeople } from '../../apps/web/src/i18n/zh-people';
import { api, apiToken, phone, phoneSuite, screenshot, smallTargets } from '../helpers';

// Issue 17, scope 2 at 390×844: people, departments and quotas in the console.
// The demo company is read-only for people (spec §6): its admin manages departments and is
// told, in their language, that users cannot be added. The user flows run in a company bought
// in the west storefront (as a customer would get one): a department, a user in it, a CSV
// with one bad line, a move, a password reset the user logs in with, and a disabled user.
// Screenshots of the page in en and zh.

const suite = phoneSuite('admin-people');
const DOMAIN = 'people-e2e.test';
const ADMIN = `admin@${DOMAIN}`;
const ADMIN_PASSWORD = 'people-admin-1';
/** An outside address (the code reaches the outside MX stand-in), so no demo mailbox other tests read gets mail. */
const CUSTOMER = 'people-buyer@partner.test';
const texts = { en: enPeople, zh: zhPeople };

async function login(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto(`${BASE_URL}/#/pages/login/index`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/#\/pages\/list-tab\/index/);
}

/** The language, for the account (server setting) and this browser, then the people page afresh. */
async function openPeople(page: Page, token: string, lang: 'en' | 'zh') {
  await api('/setting/modifylanguage', { token, query: { language: lang } });
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
  await page.goto(`${BASE_URL}/#/pages/admin/people/index`);
  await page.reload();
  await page.locator('[data-card=departments] [data-dept]').first().waitFor();
  await expect.poll(() => page.locator('.adm-nav-bar-title').first().textContent()).toBe(texts[lang].pplTitle);
}

const node = (page: Page, name: string) => page.locator(`[data-dept="${name}"]`);
const select = (page: Page, name: string) => node(page, name).locator('.mw-ppl-name').click();
const person = (page: Page, email: string) => page.locator(`[data-card=people] [data-person="${email}"]`);

/** No visible button of the page (popups included) is under 44 px high. */
function smallButtons(page: Page) {
  return smallTargets(page, '.mw-ppl button, .mw-ppl-sheet button, .mw-ppl-sheet label.mw-admin-btn');
}

/** The west code mailed to an outside address: the newest the outside MX took for it since `after`. */
async function codeFromOutside(to: string, after: number): Promise<string> {
  for (let i = 0; i < 120; i++) {
    const files = readdirSync(MX_DIR).filter((f) => f.endsWith('.eml') && Number(f.split('-')[0]) >= after).sort().reverse();
    for (const file of files) {
      const raw = readFileSync(join(MX_DIR, file));
      if (!raw.toString('latin1').startsWith(`X-Mx-Envelope-To: ${to}`)) continue;
      const code = /Verification code: (\d{6})/.exec((await simpleParser(raw)).text ?? '')?.[1];
      if (code) return code;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('no code mail reached the outside MX');
}

/** A company of our own, bought in the storefront like west.test does (a fresh customer and domain). */
async function buyCompany(page: Page) {
  const after = Date.now();
  await page.goto(`${BASE_URL}/#/pages/west/register/index`);
  await page.locator('input[name=email]').fill(CUSTOMER);
  await page.locator('input[name=password]').fill('store-pass-2');
  await page.getByTestId('west-captcha').click();
  await page.getByTestId('west-captcha').filter({ hasText: /Verified|验证通过/ }).waitFor({ timeout: 60_000 });
  await page.getByTestId('west-send-code').click();
  await page.locator('input[name=code]').fill(await codeFromOutside(CUSTOMER, after));
  await page.locator('input[name=agree]').check();
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/#\/pages\/west\/user\/index/);
  await page.goto(`${BASE_URL}/#/pages/west/recharge/index`);
  await page.locator('input[name=amount]').fill('500');
  await page.getByRole('button', { name: /Pay|去支付/ }).click();
  await page.getByTestId('west-sandbox-pay').click();
  await page.waitForURL(/#\/pages\/west\/user\/index/);
  await page.goto(`${BASE_URL}/#/pages/west/buy-mail/index`);
  await page.locator('input[name=domain]').fill(DOMAIN);
  await page.locator('input[name=companyName]').fill('People Co');
  await page.locator('input[name=adminPassword]').fill(ADMIN_PASSWORD);
  await expect.poll(() => page.getByTestId('west-price').textContent(), { timeout: 30_000 }).toMatch(/¥/);
  await page.getByRole('button', { name: /¥\d/ }).click();
  await page.waitForURL(/#\/pages\/west\/user\/index/);
  await expect.poll(async () => {
    const r = await fetch(`${BASE_URL}/h5/login/h5`, { method: 'POST', body: new URLSearchParams({ email: ADMIN, password: ADMIN_PASSWORD }) });
    return ((await r.json()) as { code: number }).code;
  }, { timeout: 90_000, interval: 1_000 }).toBe(200);
}

async function loginCode(email: string, password: string): Promise<number> {
  const r = await fetch(`${BASE_URL}/h5/login/h5`, { method: 'POST', body: new URLSearchParams({ email, password }) });
  return ((await r.json()) as { code: number }).code;
}

let demoToken = '';
let demoLanguage = 'en';
afterAll(async () => {
  if (demoToken) await api('/setting/modifylanguage', { token: demoToken, query: { language: demoLanguage } }).catch(() => undefined);
});

describe('admin people', () => {
  it('the demo admin manages departments, and is told in zh and en that a demo company cannot add users', { timeout: 180_000 }, async () => {
    const { page } = suite;
    demoToken = await apiToken('admin@demo.test');
    demoLanguage = (await api<{ language: string | null }>('/setting/index', { token: demoToken })).language ?? 'en';
    await login(page, 'admin@demo.test');
    // Reached from the console's home.
    await page.goto(`${BASE_URL}/#/pages/admin/index/index`);
    await page.locator('[data-section=people]').waitFor();
    // Every entry is titled in words, not by its key (a title from a catalogue the home page lacks fell back to the key).
    const untitled = await page.locator('[data-section]').evaluateAll((els) => els
      .filter((el) => (el.querySelector('.adm-list-item-content-main')?.textContent ?? '').trim() === el.getAttribute('data-section'))
      .map((el) => el.getAttribute('data-section')));
    expect(untitled).toEqual([]);
    await page.locator('[data-section=people]').click();
    await page.waitForURL(/#\/pages\/admin\/people\/index/);
    for (const lang of ['en', 'zh'] as const) {
      const t = texts[lang];
      await openPeople(page, demoToken, lang);
      await node(page, 'Sales').waitFor();
      await expect.poll(() => person(page, 'alice@demo.test').count()).toBe(1);
      await screenshot(page, `admin-people-${lang}-demo`);

      // A sub-department under Sales, created, then deleted again.
      const name = lang === 'en' ? 'Field sales' : '外勤销售';
      await select(page, 'Sales');
      await page.getByRole('button', { name: t.pplAddDept }).click();
      await page.locator('input[name=deptName]').fill(name);
      await page.getByRole('button', { name: t.pplSave }).click();
      await node(page, name).waitFor();
      await expect.poll(() => node(page, name).getAttribute('class')).toContain('is-selected');
      await expect.poll(() => page.locator('[data-card=people] h3').textContent()).toBe(name);
      expect(await smallButtons(page)).toEqual([]);
      await screenshot(page, `admin-people-${lang}-department`);

      // Adding a user: the server's refusal, by its reason code, in the admin's language.
      await page.getByRole('button', { name: t.pplAddUser }).click();
      const form = page.locator('[data-form=create]');
      await form.locator('input[name=email]').fill(`nobody-${lang}@demo.test`);
      await form.locator('input[name=name]').fill('Nobody');
      await form.locator('input[name=password]').fill('nobody-pass-1');
      await form.getByRole('button', { name: t.pplCreate }).click();
      await expect.poll(() => form.getByRole('alert').textContent()).toBe(t.pplReasons['admin.demo_read_only']);
      expect(await smallButtons(page)).toEqual([]);
      await screenshot(page, `admin-people-${lang}-demo-refused`);
      await form.getByRole('button', { name: t.pplCancel }).click();
      await form.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: t.pplDeleteDept, exact: true }).click();
      await page.locator('.adm-dialog').getByRole('button', { name: t.pplDeleteDept }).click();
      await node(page, name).waitFor({ state: 'detached' });
    }
  });

  it('an admin adds a department and a user, imports a CSV with a bad line, moves, resets a password, disables', { timeout: 360_000 }, async () => {
    const { page } = suite;
    await buyCompany(page);
    await login(page, ADMIN, ADMIN_PASSWORD);
    const token = (await api<{ token: string }>('/login/h5', { form: { email: ADMIN, password: ADMIN_PASSWORD } })).token;
    const t = texts.en;
    await openPeople(page, token, 'en');

    // A department under the root (named after the company).
    await select(page, 'People Co');
    await page.getByRole('button', { name: t.pplAddDept }).click();
    await page.locator('input[name=deptName]').fill('Support');
    await page.getByRole('button', { name: t.pplSave }).click();
    await expect.poll(() => node(page, 'Support').getAttribute('class')).toContain('is-selected');

    // A user in it: the form starts in the selected department.
    await page.getByRole('button', { name: t.pplAddUser }).click();
    const create = page.locator('[data-form=create]');
    expect(await create.locator('select[name=ppl-department] option:checked').textContent()).toContain('Support');
    await create.locator('input[name=email]').fill(`carol@${DOMAIN}`);
    await create.locator('input[name=name]').fill('Carol Chen');
    await create.locator('input[name=password]').fill('carol-pass-1');
    await create.locator('input[name=jobTitle]').fill('Support lead');
    await create.locator('input[name=quotaGb]').fill('2');
    await create.getByRole('button', { name: t.pplCreate }).click();
    await create.waitFor({ state: 'detached' });
    await person(page, `carol@${DOMAIN}`).waitFor();

    // A CSV with one bad line: the good lines are created, the bad one is named with its reason.
    await page.getByRole('button', { name: t.pplImport }).click();
    const csv = `email,name,password,department\ndave@${DOMAIN},Dave Du,dave-pass-1,Support\nnot-an-address,Eve,eve-pass-1,\nfrank@${DOMAIN},Frank Fu,frank-pass-1,Support\n`;
    await page.locator('.mw-ppl-sheet input[type=file]').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.locator('.mw-ppl-sheet').getByRole('button', { name: t.pplImportRun, exact: true }).click();
    const result = page.locator('[data-import-result]');
    await expect.poll(() => result.getAttribute('data-import-result')).toBe('2/1');
    expect(await result.locator('[data-line]').count()).toBe(1);
    expect(await result.locator('[data-line="3"]').textContent()).toContain(t.pplReasons['people.csv_email']);
    expect(await smallButtons(page)).toEqual([]);
    await screenshot(page, 'admin-people-en-import');
    await page.locator('.mw-ppl-sheet').getByRole('button', { name: t.pplCancel }).click();
    await expect.poll(() => person(page, `dave@${DOMAIN}`).count()).toBe(1);

    // Move Carol to the root department: she leaves Support's list.
    await person(page, `carol@${DOMAIN}`).click();
    const edit = page.locator('[data-form=edit]');
    await edit.locator('select[name=ppl-department]').selectOption({ label: 'People Co' });
    await edit.getByRole('button', { name: t.pplSave }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => person(page, `carol@${DOMAIN}`).count()).toBe(0);
    await select(page, 'People Co');
    await person(page, `carol@${DOMAIN}`).waitFor();
    expect((await api<{ departmentId: string | null }>('/admin/people/get', { token, query: { id: await idOf(token, `carol@${DOMAIN}`) } })).departmentId)
      .toBe((await api<{ list: { id: string; name: string }[] }>('/admin/departments/list', { token })).list.find((d) => d.name === 'People Co')!.id);

    // Spec §6: no admin in the root department — refused by reason, in the admin's language.
    await person(page, `carol@${DOMAIN}`).click();
    await edit.locator('select[name=role]').selectOption('admin');
    await edit.getByRole('button', { name: t.pplSave }).click();
    await expect.poll(() => edit.getByRole('alert').textContent()).toBe(t.pplReasons['admin.scope_root']);
    await edit.getByRole('button', { name: t.pplCancel }).click();
    await edit.waitFor({ state: 'detached' });
    // Dave, in Support, may be an admin, scoped to Support.
    await select(page, 'Support');
    await person(page, `dave@${DOMAIN}`).click();
    await edit.locator('select[name=role]').selectOption('admin');
    await edit.getByRole('button', { name: t.pplSave }).click();
    await edit.waitFor({ state: 'detached' });
    await person(page, `dave@${DOMAIN}`).click();
    await edit.locator('[data-scope] input[type=checkbox]').first().check();
    await edit.getByRole('button', { name: t.pplScopeSave }).click();
    await expect.poll(async () => (await api<{ scope: string[]; role: string }>('/admin/people/get', { token, query: { id: await idOf(token, `dave@${DOMAIN}`) } })).scope.length).toBe(1);
    await edit.getByRole('button', { name: t.pplCancel }).click();
    await edit.waitFor({ state: 'detached' });

    // Reset Dave's password; he signs in with the new one in a browser of his own.
    await person(page, `dave@${DOMAIN}`).click();
    await edit.locator('input[name=newPassword]').fill('dave-new-pass-2');
    await edit.getByRole('button', { name: t.pplResetPassword }).click();
    await page.getByText(t.pplPasswordReset).waitFor();
    await screenshot(page, 'admin-people-en-edit');
    await edit.getByRole('button', { name: t.pplCancel }).click();
    await edit.waitFor({ state: 'detached' });
    expect(await loginCode(`dave@${DOMAIN}`, 'dave-pass-1')).not.toBe(200);
    const browser = page.context().browser()!;
    const dave = await phone(browser);
    try {
      await login(dave.page, `dave@${DOMAIN}`, 'dave-new-pass-2');
      // A user the console creates gets the company's welcome mail (issue 17, scope 7), in his inbox.
      const welcome = dave.page.locator('.mw-mail-row', { hasText: 'Welcome to People Co mail' });
      await expect.poll(async () => {
        await dave.page.reload();
        return welcome.waitFor({ timeout: 3_000 }).then(() => true, () => false);
      }, { timeout: 60_000 }).toBe(true);
      // Dave is an admin scoped to Support (spec §6): the root is out of his reach, and he sees Support's people only.
      await dave.page.goto(`${BASE_URL}/#/pages/admin/people/index`);
      await person(dave.page, `frank@${DOMAIN}`).waitFor();
      expect(await node(dave.page, 'People Co').locator('.mw-ppl-name').isDisabled()).toBe(true);
      expect(await person(dave.page, `carol@${DOMAIN}`).count()).toBe(0);
      expect(await person(dave.page, ADMIN).count()).toBe(0);
      expect(await dave.page.locator('[data-card=people] h3').textContent()).toBe(t.pplAllScoped);
      expect(await dave.page.locator('input[name=companyQuota]').count()).toBe(0);
      await screenshot(dave.page, 'admin-people-en-scoped');
    } finally {
      await dave.context.close();
    }

    // Disable Frank: marked in the list, and he can no longer sign in.
    await person(page, `frank@${DOMAIN}`).click();
    await edit.locator('[data-action=toggle]').click();
    await page.locator('.adm-dialog').getByRole('button', { name: t.pplDisable }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => person(page, `frank@${DOMAIN}`).getAttribute('data-status')).toBe('disabled');
    expect(await loginCode(`frank@${DOMAIN}`, 'frank-pass-1')).not.toBe(200);
    expect(await smallButtons(page)).toEqual([]);
    await screenshot(page, 'admin-people-en-list');

    // The company total: below what is given to people it is refused by reason; above, it is the limit shown.
    const storage = page.locator('[data-card=quota]');
    await storage.locator('input[name=companyQuota]').fill('1');
    await storage.getByRole('button', { name: t.pplSetQuota }).click();
    await expect.poll(() => storage.getByRole('alert').textContent()).toBe(t.pplReasons['quota.company_exceeded']);
    await storage.locator('input[name=companyQuota]').fill('100');
    await storage.getByRole('button', { name: t.pplSetQuota }).click();
    await expect.poll(() => storage.locator('.mw-ppl-usage .mw-admin-sub').textContent()).toContain('limit 100.00 GB');
    expect(await storage.getByRole('alert').count()).toBe(0);

    // The same page in zh, with the edit sheet.
    await openPeople(page, token, 'zh');
    await person(page, `frank@${DOMAIN}`).waitFor();
    await screenshot(page, 'admin-people-zh-list');
    await person(page, `carol@${DOMAIN}`).click();
    await page.locator('[data-form=edit]').waitFor();
    expect(await smallButtons(page)).toEqual([]);
    await screenshot(page, 'admin-people-zh-edit');
    // Comfortable on a desktop too: the tree beside the people.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('[data-form=edit]').getByRole('button', { name: texts.zh.pplCancel }).click();
    await page.locator('[data-form=edit]').waitFor({ state: 'detached' });
    // The sheet's mask fades out after the form has gone: let it, so the picture shows the page.
    await page.waitForTimeout(400);
    await screenshot(page, 'admin-people-zh-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('shows an ordinary user no console, and the people page refuses them', async () => {
    const { page } = suite;
    await login(page, 'bob@demo.test');
    await page.goto(`${BASE_URL}/#/pages/setting/index`);
    await page.locator('[data-row=version]').waitFor();
    expect(await page.locator('[data-row=adminConsole]').count()).toBe(0);
    await page.goto(`${BASE_URL}/#/pages/admin/people/index`);
    await page.locator('.mw-state').first().waitFor();
    expect(await page.locator('[data-card]').count()).toBe(0);
    expect(await page.locator('[data-person]').count()).toBe(0);
  });
});

async function idOf(token: string, email: string): Promise<string> {
  const r = await api<{ list: { id: string; email: string }[] }>('/admin/people/list', { token, query: { q: email, page: '1', size: '10' } });
  return r.list.find((p) => p.email === email)!.id;
}
