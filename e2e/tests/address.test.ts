import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, BASE_URL, DEMO_PASSWORD } from '../env';
import { api, apiToken, launch, login, phone, screenshot, sendMail } from '../helpers';

interface Summary {
  subject: string;
  fromImportant: boolean;
}

const SCREENS = `${ARTIFACTS}/screens`;

// Issue 6's flows through the real UI, as bob at a phone viewport: contacts
// and the index bar, groups and the recipient chooser, whole departments,
// the block list, and the company directory. Steps build on each other.
describe('address book and directory', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  const stamp = Date.now();
  const zhang = { name: '张伟', email: `zhangwei.${stamp}@partner.test` };
  const li = { name: '李雷', email: `lilei.${stamp}@partner.test` };
  const group = `Partners ${stamp}`;
  const spammer = `offers.${stamp}@spammy.test`;
  const friend = `friend.${stamp}@partner.test`;

  const list = (mid: string) => api<{ list: Summary[] }>('/mail/list', { token, query: { mid, page: '1', size: '50' } }).then((r) => r.list);

  /** Keeps a screenshot for people to look at (issue brief: the main address book screens). */
  async function keep(name: string): Promise<void> {
    mkdirSync(SCREENS, { recursive: true });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SCREENS}/address-${name}.png` });
  }

  async function openTab(view: 'contacts' | 'company' = 'contacts'): Promise<void> {
    await page.goto(`${BASE_URL}/#/pages/address/index${view === 'company' ? '?view=company' : ''}`);
    await page.reload();
    await page.locator(`.mw-ab-seg [data-view=${view}][aria-selected=true]`).waitFor();
  }

  async function openCompose(): Promise<void> {
    await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
    await page.locator('.mw-compose-fab').click();
    await page.waitForURL(/#\/pages\/write\/index$/);
    await page.locator('#mw-addr-to').waitFor();
  }

  const chip = (field: 'to' | 'cc' | 'bcc', address: string) => page.locator(`.mw-addr[data-field=${field}] .mw-chip[data-address="${address}"]`);

  beforeAll(async () => {
    browser = await launch();
    ({ page } = await phone(browser));
    token = await apiToken('bob@demo.test');
    await login(page, 'bob@demo.test');
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(() => screenshot(page, `address-${task.name}`));
  });

  it('adds a contact with a Chinese name (spec §5 checks first) and finds it under its pinyin initial Z', async () => {
    // A few more, so the index bar has letters to jump between; Carl is important (pinned under ★).
    const more = [
      { name: 'Anna Lee', email: `anna.${stamp}@example.test`, important: '0' },
      { name: '王芳', email: `wangfang.${stamp}@partner.test`, important: '0' },
      { name: 'Carl Young', email: `carl.${stamp}@example.test`, important: '1' },
    ];
    for (const form of more) await api('/contact/save', { token, form });
    await openTab();
    await page.locator(`.adm-index-bar-anchor[data-index="★"] .mw-ab-row[data-email="carl.${stamp}@example.test"]`).waitFor();
    await page.locator(`.adm-index-bar-anchor[data-index=W] .mw-ab-row[data-email="wangfang.${stamp}@partner.test"]`).waitFor();
    await page.locator('[data-action=add-contact]').click();
    await page.waitForURL(/#\/pages\/address\/contact$/);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Contact name is required').waitFor();
    await page.getByText('Contact e-mail is required').waitFor();
    await keep('contact-form-errors');

    await page.locator('input[name=name]').fill(zhang.name);
    await page.locator('input[name=email]').fill('not-an-address');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('A mailbox address must be valid').waitFor();
    await page.locator('input[name=email]').fill(zhang.email);
    await page.locator('input[name=company]').fill('Partner Co');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/pages\/address\/index$/);

    // The index bar: tap Z, and the Z panel holds the new contact, on screen.
    const row = page.locator(`.adm-index-bar-anchor[data-index=Z] .mw-ab-row[data-email="${zhang.email}"]`);
    await row.waitFor({ state: 'attached' });
    const z = page.locator('.adm-index-bar-sidebar-row[data-index=Z]');
    await z.dispatchEvent('mousedown');
    await z.dispatchEvent('mouseup');
    // The jump brings the Z panel's title on screen, and the new contact is in that panel.
    const zTitle = page.locator('.adm-index-bar-anchor[data-index=Z] .adm-index-bar-anchor-title');
    await expect.poll(async () => {
      const box = await zTitle.boundingBox();
      return box !== null && box.y > 150 && box.y + box.height < 794;
    }).toBe(true);
    // Let the "Saved" toast (spec §9: 2 s) go before the screenshot.
    await page.waitForTimeout(2_000);
    await keep('contacts');

    // Search by pinyin finds it too.
    await page.locator('.mw-ab-search input').fill('zhangwei');
    await page.locator(`.mw-ab-row[data-email="${zhang.email}"]`).waitFor();
    const shown = () => page.locator('.mw-ab-row').evaluateAll((rows) => [...new Set(rows.map((r) => (r as HTMLElement).dataset.email?.split('.')[0]))]);
    await expect.poll(shown).toEqual(['zhangwei']);
    // A second address already in the book is refused in the server's words.
    await page.goto(`${BASE_URL}/#/pages/address/contact`);
    await page.locator('input[name=name]').fill('Zhang Wei');
    await page.locator('input[name=email]').fill(zhang.email);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.adm-form-item-feedback-error', { hasText: 'A contact with this address already exists' }).waitFor();
  });

  it('imports a CSV with a bad line: good rows come in, the bad line is named with its reason', async () => {
    await page.goto(`${BASE_URL}/#/pages/address/transfer`);
    const csv = `Name,Email,Phone,Company,Job title,Job number,Groups\n${li.name},${li.email},,Partner Co,Buyer,,\nNo Address,,,,,,\n`;
    await page.locator('input[type=file][name=file]').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.locator('.mw-ab-import-result', { hasText: '1 imported, 0 updated' }).waitFor();
    await page.locator('.mw-ab-errors li[data-line="3"]').waitFor();
    const book = await api<{ list: Array<{ email: string }> }>('/contact/list', { token, query: { q: 'lilei' } });
    expect(book.list.map((c) => c.email)).toContain(li.email);
    // Export links carry the session token.
    expect(await page.locator('a[data-export=csv]').getAttribute('href')).toMatch(/\/h5\/contact\/export\?format=csv&t=/);
  });

  it('makes a group of two contacts and writes to it from compose through the chooser', async () => {
    await openTab();
    await page.locator('[data-link=groups]').click();
    await page.waitForURL(/#\/pages\/address\/groups$/);
    await page.locator('[data-action=new-group]').click();
    // Spec §5: a group name is required.
    await page.locator('.adm-dialog').getByRole('button', { name: 'OK' }).click();
    await page.getByText('Group name is required').waitFor();
    await page.locator('input[name=group-name]').fill(group);
    await page.locator('.adm-dialog').getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(/#\/pages\/address\/group\?id=/);
    await page.locator('.mw-nav', { hasText: group }).waitFor();

    await page.locator('[data-action=add-to-group]').click();
    await page.locator(`.adm-popup .mw-ab-row[data-email="${zhang.email}"]`).click();
    await page.locator(`.adm-popup .mw-ab-row[data-email="${li.email}"]`).click();
    await page.locator('[data-action=confirm-add]').click();
    await page.locator(`.mw-ab-group-members .mw-ab-row[data-email="${zhang.email}"]`).waitFor();
    await page.locator(`.mw-ab-group-members .mw-ab-row[data-email="${li.email}"]`).waitFor();

    await openCompose();
    await page.locator('#mw-subject').fill(`To the partners ${stamp}`);
    await page.locator('[data-choose=to]').click();
    await page.waitForURL(/#\/pages\/address-choose\/index\?type=to$/);
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.locator(`.mw-ab-row[data-name="${group}"]`).click();
    await page.locator('.mw-ab-bar-count[data-count="2"]').waitFor();
    expect(await page.locator(`.mw-ab-row[data-name="${group}"]`).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('tab', { name: 'Contacts' }).click();
    await page.locator(`.mw-ab-row[data-email="${zhang.email}"][aria-checked=true]`).waitFor();
    await keep('chooser');
    await page.locator('[data-action=confirm-choice]').click();

    await page.waitForURL(/#\/pages\/write\/index$/);
    await chip('to', zhang.email).waitFor();
    await chip('to', li.email).waitFor();
    // The mail is the one that was being written, and the selection is used once (spec §4 clears it).
    expect(await page.locator('#mw-subject').inputValue()).toBe(`To the partners ${stamp}`);
    expect(await page.evaluate(() => [localStorage.getItem('selectedContacts'), localStorage.getItem('addressSelectType')])).toEqual(['[]', '""']);
  });

  it('picks whole departments in the chooser and gets their members as chips in Cc', async () => {
    await openCompose();
    await page.locator('.mw-compose-more').click();
    await page.locator('[data-choose=cc]').click();
    await page.waitForURL(/#\/pages\/address-choose\/index\?type=cc$/);
    await page.getByRole('tab', { name: 'Departments' }).click();
    await page.locator('.mw-ab-row[data-name=Sales]').click();
    await page.locator('.mw-ab-row[data-name=Sales][aria-checked=true]').waitFor();
    await page.locator('.mw-ab-row[data-name=Engineering]').click();
    await page.locator('.mw-ab-bar-count[data-count="2"]').waitFor();
    // The members tab shows them chosen.
    await page.getByRole('tab', { name: 'Members' }).click();
    await page.locator('.mw-ab-row[data-email="alice@demo.test"][aria-checked=true]').waitFor();
    await page.locator('[data-action=confirm-choice]').click();
    await page.waitForURL(/#\/pages\/write\/index$/);
    await chip('cc', 'alice@demo.test').waitFor();
    await chip('cc', 'bob@demo.test').waitFor();
    expect(await page.locator('.mw-addr[data-field=to] .mw-chip').count()).toBe(0);
  });

  it('blocks a sender: their mail lands in Spam, not the inbox; an important contact is marked in the inbox', async () => {
    await openTab();
    await page.locator('[data-link=rules]').click();
    await page.waitForURL(/#\/pages\/address\/rules$/);
    await page.locator('input[name=pattern]').fill('not a pattern');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Enter an address or a domain').waitFor();
    await page.locator('input[name=pattern]').fill(spammer);
    await page.getByRole('button', { name: 'Add' }).click();
    await page.locator(`.mw-ab-rules [data-pattern="${spammer}"]`).waitFor();
    await keep('block-list');

    // The friend is an important contact: their mail is flagged in the list.
    await api('/contact/save', { token, form: { name: 'Friend', email: friend, important: '1' } });
    await sendMail({ from: spammer, to: 'bob@demo.test', subject: `Blocked offer ${stamp}`, text: 'Buy now' });
    await sendMail({ from: `Friend <${friend}>`, to: 'bob@demo.test', subject: `Hello from a friend ${stamp}`, text: 'Hi Bob' });
    await expect.poll(async () => (await list('3')).some((m) => m.subject === `Blocked offer ${stamp}`), { timeout: 15_000 }).toBe(true);
    expect((await list('0')).some((m) => m.subject === `Blocked offer ${stamp}`)).toBe(false);

    await page.goto(`${BASE_URL}/#/pages/list/index?mid=3`);
    await page.reload();
    await page.locator('.mw-mail-row', { hasText: `Blocked offer ${stamp}` }).waitFor();
    await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
    await page.reload();
    const friendRow = page.locator('.mw-mail-row', { hasText: `Hello from a friend ${stamp}` });
    await friendRow.waitFor();
    await friendRow.locator('.mw-from-important').waitFor();
    expect(await page.locator('.mw-mail-row', { hasText: `Blocked offer ${stamp}` }).count()).toBe(0);
  });

  it('browses the company: departments with breadcrumbs, a member profile, write mail from it, and member search', async () => {
    await openTab('company');
    await page.locator('.mw-ab-depts .adm-list-item', { hasText: 'Engineering' }).waitFor();
    await keep('company');
    await page.locator('.mw-ab-depts .adm-list-item', { hasText: 'Engineering' }).click();
    await page.locator('.mw-ab-crumbs .is-current', { hasText: 'Engineering' }).waitFor();
    await page.locator('.mw-ab-members .mw-ab-row[data-email="bob@demo.test"]').click();
    await page.waitForURL(/#\/pages\/modules\/member-detail\/index\?id=/);
    await page.locator('.mw-ab-profile-name', { hasText: 'Bob Li' }).waitFor();
    await page.locator('.mw-ab-details', { hasText: 'Engineering' }).waitFor();
    await keep('member-detail');
    await page.locator('[data-action=write]').click();
    await page.waitForURL(/#\/pages\/write\/index$/);
    await chip('to', 'bob@demo.test').waitFor();

    // Back to Engineering, up to the root by the breadcrumb, then search.
    await page.goBack();
    await page.waitForURL(/#\/pages\/modules\/member-detail\/index\?id=/);
    await page.goBack();
    await page.locator('.mw-ab-crumbs .is-current', { hasText: 'Engineering' }).waitFor();
    await page.locator('.mw-ab-crumbs a', { hasText: 'Demo Co' }).click();
    await page.locator('.mw-ab-depts .adm-list-item', { hasText: 'Sales' }).waitFor();
    await page.locator('[data-link=search-member]').click();
    await page.waitForURL(/#\/pages\/modules\/search-member\/index$/);
    await page.locator('.mw-ab-search input').fill('sales manager');
    await page.locator('.mw-ab-row[data-email="alice@demo.test"]').waitFor();
    expect(await page.locator('.mw-ab-row').count()).toBe(1);
  });

  it('shows an admin the server’s refusal to edit members of a demo company', async () => {
    const { page: admin } = await phone(browser);
    try {
      // The admin's inbox may be empty, so not the login helper (it waits for mail rows).
      await admin.goto(`${BASE_URL}/#/pages/login/index`);
      await admin.locator('input[name=email]').fill('admin@demo.test');
      await admin.locator('input[name=password]').fill(DEMO_PASSWORD);
      await admin.locator('button[type=submit]').click();
      await admin.waitForURL(/#\/pages\/list-tab\/index/);
      await admin.goto(`${BASE_URL}/#/pages/address/index?view=company`);
      await admin.locator('[data-action=add-member]').click();
      await admin.waitForURL(/#\/pages\/modules\/member-edit\/index\?dept=/);
      await admin.locator('input[name=email]').fill(`new.${stamp}@demo.test`);
      await admin.locator('input[name=password]').fill('long-enough-1');
      await admin.locator('input[name=name]').fill('New Person');
      await admin.getByRole('button', { name: 'Save' }).click();
      await admin.getByText('Demo accounts cannot add or edit users').waitFor();
    } finally {
      await admin.context().close();
    }
  });
});
