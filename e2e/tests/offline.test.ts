import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { BASE_URL } from '../env';
import { api, apiToken, launch, phone, screenshot, sendMail, smallTargets, waitUntil } from '../helpers';
import { keptInDb, offlineStoreExists, outboxMail, putOffline } from '../offline-store';

// Issue 15, scope 3: offline-first. Alice opens a mail online; offline (the installed app's
// service worker active) she reads it, stars it, and writes a mail that waits in the outbox;
// back online the star is replayed and the mail sent exactly once (bob's inbox, alice's Sent).
// Run in English and in Chinese, with screenshots of each changed screen.

interface Summary { id: string; mid: string; subject: string; star: boolean; read: boolean }

const list = (token: string, mid: string) => api<{ list: Summary[] }>('/mail/list', { token, query: { mid, page: '1', size: '100' } }).then((r) => r.list);
const withSubject = async (token: string, mid: string, subject: string) => (await list(token, mid)).filter((m) => m.subject === subject);

describe('offline-first', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let alice: string;
  let bob: string;
  let before = 'en';

  beforeAll(async () => {
    browser = await launch();
    ({ context, page } = await phone(browser));
    alice = await apiToken('alice@demo.test');
    bob = await apiToken('bob@demo.test');
    before = (await api<{ language: string | null }>('/setting/index', { token: alice })).language ?? 'en';
  });
  beforeEach(async ({ onTestFailed, task }) => {
    onTestFailed(() => screenshot(page, `offline-failed-${task.name}`));
    // A test that failed offline must not leave the next one offline; each starts in English
    // (the language tests set theirs).
    await context.setOffline(false);
    await api('/setting/modifylanguage', { token: alice, query: { language: 'en' } });
    await page.evaluate(() => localStorage.setItem('language', 'en')).catch(() => undefined);
  });
  afterAll(async () => {
    // Other files share this server: alice's language goes back to what it was.
    await api('/setting/modifylanguage', { token: alice, query: { language: before } }).catch(() => undefined);
    await context?.setOffline(false).catch(() => undefined);
    await browser?.close();
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`reads kept mail, queues a star and an outbox mail offline, and sends it once online (${lang})`, async () => {
      const stamp = `${lang}-${Date.now()}`;
      const kept = `Offline kept ${stamp}`;
      const written = `Written offline ${stamp}`;
      // A mail from bob for alice to open while online.
      await api('/write/send', { token: bob, form: { to: 'alice@demo.test', subject: kept, html: `<p>Body to read offline ${stamp}</p>` } });
      await waitUntil(async () => (await withSubject(alice, '0', kept)).length === 1);
      const mail = (await withSubject(alice, '0', kept))[0]!;

      // The account's language wins over the device's (it follows the account), so both are set.
      await api('/setting/modifylanguage', { token: alice, query: { language: lang } });
      await page.goto(`${BASE_URL}/?t=${encodeURIComponent(alice)}&email=alice@demo.test`);
      await page.locator('.mw-mail-row').first().waitFor();
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.reload();
      await page.locator('.mw-mail-row', { hasText: kept }).waitFor();
      await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), { timeout: 20_000 }).toBe('activated');
      // Open it online: it (and the list and folders) are kept.
      await page.locator('.mw-mail-row', { hasText: kept }).click();
      await page.locator('.mw-read-subject', { hasText: kept }).waitFor();
      await page.goBack();
      await page.locator('.mw-mail-row', { hasText: kept }).waitFor();
      await expect.poll(() => keptInDb(page, 'alice@demo.test', mail.id), { timeout: 10_000 }).toBe(true);

      // Offline, and the app started afresh from the service worker.
      await context.setOffline(true);
      await page.reload();
      const banner = page.locator('.mw-offline-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain(lang === 'en' ? 'Offline' : '离线');
      await page.locator('.mw-mail-row', { hasText: kept }).waitFor();
      // The banner sits above the app: the nav bar starts below it.
      const bannerBox = (await banner.boundingBox())!;
      const navBox = (await page.locator('.mw-nav').first().boundingBox())!;
      expect(navBox.y).toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height - 1);
      await screenshot(page, `offline-${lang}-list`);

      // The opened mail reads normally.
      await page.locator('.mw-mail-row', { hasText: kept }).click();
      await page.locator('.mw-read-subject', { hasText: kept }).waitFor();
      await page.frameLocator('iframe').first().getByText(`Body to read offline ${stamp}`).waitFor().catch(async () => {
        // Plain bodies are not in a frame.
        await page.getByText(`Body to read offline ${stamp}`).waitFor();
      });
      // Star it offline: queued, shown at once.
      await page.locator('.mw-read-actions [data-action=more]').click();
      await page.locator('.adm-action-sheet-button-item', { hasText: lang === 'en' ? 'Star' : '星标' }).first().click();
      await page.locator('.mw-read-subject .mw-star').waitFor();
      await page.locator('.adm-action-sheet').waitFor({ state: 'hidden' }).catch(() => undefined);
      await screenshot(page, `offline-${lang}-read`);
      expect((await withSubject(alice, '0', kept))[0]!.star).toBe(false);

      // Write a mail offline: it waits in the outbox.
      await page.goto(`${BASE_URL}/#/pages/write/index`);
      await page.locator('#mw-addr-to').fill('bob@demo.test,');
      await page.locator('.mw-addr[data-field=to] .mw-chip[data-address="bob@demo.test"]').waitFor();
      await page.locator('#mw-subject').fill(written);
      await page.locator('.mw-editor-content').click();
      await page.keyboard.type(`Sent when back online ${stamp}`);
      await page.locator('.mw-send').click();
      await page.locator('.mw-offline-outbox').waitFor();
      expect(await page.locator('.mw-offline-outbox').textContent()).toContain('1');
      await screenshot(page, `offline-${lang}-queued`);
      await page.locator('.mw-offline-outbox').click();
      await page.locator('[data-outbox=waiting]', { hasText: written }).waitFor();
      expect(await smallTargets(page, '.mw-offline-outbox, .mw-outbox-actions .adm-button')).toEqual([]);
      await screenshot(page, `offline-${lang}-outbox`);
      expect(await withSubject(bob, '0', written)).toHaveLength(0);

      // Back online: the star is replayed and the mail sent, once.
      await context.setOffline(false);
      await waitUntil(async () => (await withSubject(bob, '0', written)).length > 0, 20_000);
      await page.locator('.mw-outbox-page, .mw-state', { hasText: lang === 'en' ? 'Nothing is waiting' : '没有待发送' }).first().waitFor().catch(() => undefined);
      await expect.poll(() => banner.isHidden(), { timeout: 10_000 }).toBe(true);
      await screenshot(page, `offline-${lang}-sent`);
      await page.waitForTimeout(1500); // a second send would come within the replay's own run
      expect(await withSubject(bob, '0', written)).toHaveLength(1);
      expect(await withSubject(alice, '1', written)).toHaveLength(1);
      await waitUntil(async () => (await withSubject(alice, '0', kept))[0]!.star === true);
      // Reloading online replays nothing again.
      await page.reload();
      await page.locator('.mw-nav').first().waitFor();
      await page.waitForTimeout(1000);
      expect(await withSubject(bob, '0', written)).toHaveLength(1);
    });
  }

  it('a queued move of a mail deleted on the server meanwhile is dropped, and said', async () => {
    const subject = `Offline conflict ${Date.now()}`;
    await api('/write/send', { token: bob, form: { to: 'alice@demo.test', subject, html: '<p>gone soon</p>' } });
    await waitUntil(async () => (await withSubject(alice, '0', subject)).length === 1);
    const mail = (await withSubject(alice, '0', subject))[0]!;
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
    await page.reload();
    await page.locator('.mw-mail-row', { hasText: subject }).click();
    await page.locator('.mw-read-subject', { hasText: subject }).waitFor();
    await context.setOffline(true);
    // Delete offline (queued as a move to Deleted).
    await page.locator('.mw-read-actions [data-action=more]').click();
    await page.locator('.adm-action-sheet-button-item', { hasText: 'Delete' }).first().click();
    const confirm = page.locator('.adm-dialog-footer .adm-button', { hasText: 'Delete' });
    if (await confirm.count()) await confirm.click();
    // Meanwhile the mail is deleted for good on the server (another device).
    await api('/mailop/move', { token: alice, form: { ids: mail.id, to: '4' } });
    await api('/mailop/purge', { token: alice, form: { ids: mail.id } });
    await context.setOffline(false);
    await page.getByText('not applied').waitFor({ timeout: 20_000 });
    await screenshot(page, 'offline-en-conflict');
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`logging out with mail in the outbox warns with the count, and Cancel keeps it (${lang})`, async () => {
      const written = `Outbox at logout ${lang}-${Date.now()}`;
      await api('/setting/modifylanguage', { token: alice, query: { language: lang } });
      await page.goto(`${BASE_URL}/?t=${encodeURIComponent(alice)}&email=alice@demo.test`);
      await page.locator('.mw-mail-row').first().waitFor();
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.goto(`${BASE_URL}/#/pages/write/index`);
      await page.reload();
      // Compose is open (its code loaded) before the network goes: the mail is written offline.
      await page.locator('#mw-addr-to').waitFor();
      await context.setOffline(true);
      await page.locator('#mw-addr-to').fill('bob@demo.test,');
      await page.locator('.mw-addr[data-field=to] .mw-chip[data-address="bob@demo.test"]').waitFor();
      await page.locator('#mw-subject').fill(written);
      await page.locator('.mw-editor-content').click();
      await page.keyboard.type('Must not vanish at logout');
      await page.locator('.mw-send').click();
      await page.locator('.mw-offline-outbox').waitFor();

      await page.goto(`${BASE_URL}/#/pages/setting/index`);
      const logoutButton = page.getByRole('button', { name: lang === 'en' ? 'Log out' : '退出登录', exact: true });
      await logoutButton.click();
      const dialog = page.locator('.adm-dialog');
      await dialog.getByText(lang === 'en' ? '1 mail is waiting in the outbox' : '发件箱中有 1 封邮件').waitFor();
      const cancel = dialog.locator('.adm-dialog-button', { hasText: lang === 'en' ? 'Cancel' : '取消' });
      const discard = dialog.locator('.adm-dialog-button', { hasText: lang === 'en' ? 'Log out and discard' : '退出并丢弃' });
      expect(await cancel.count()).toBe(1);
      expect(await discard.count()).toBe(1);
      // Measured once the dialog's opening animation (a scale from 90 %) has ended.
      await expect.poll(() => smallTargets(page, '.adm-dialog .adm-dialog-button'), { timeout: 5_000 }).toEqual([]);
      await screenshot(page, `offline-${lang}-logout-outbox`);
      // Cancel: still logged in, the mail still waits.
      await cancel.click();
      await dialog.waitFor({ state: 'hidden' });
      expect(page.url()).toContain('/pages/setting/index');
      expect(await page.locator('.mw-offline-outbox').textContent()).toContain('1');

      // Log out and discard: gone, and never sent.
      await logoutButton.click();
      await discard.click();
      await page.waitForURL(/login/);
      await expect.poll(() => offlineStoreExists(page), { timeout: 10_000 }).toBe(false);
      await context.setOffline(false);
      await page.waitForTimeout(1000);
      expect(await withSubject(bob, '0', written)).toHaveLength(0);
    });
  }

  it('logging out online sends the outbox first, then asks the usual question', async () => {
    const written = `Outbox sent at logout ${Date.now()}`;
    await page.goto(`${BASE_URL}/?t=${encodeURIComponent(alice)}&email=alice@demo.test`);
    await page.locator('.mw-mail-row').first().waitFor();
    await page.goto(`${BASE_URL}/#/pages/setting/index`);
    await page.locator('.mw-nav').first().waitFor();
    // A mail left in the outbox (written offline, the replay not yet run): put straight into
    // the store, so no online event or start-up replay sends it before the logout does.
    await expect.poll(() => offlineStoreExists(page), { timeout: 10_000 }).toBe(true);
    await putOffline(page, 'outbox', outboxMail(`logout-${Date.now()}`, written));
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    // Sent first, so the usual question, not the outbox warning.
    await page.getByText('Log out of this mailbox?').waitFor();
    expect(await page.getByText('waiting in the outbox').count()).toBe(0);
    await waitUntil(async () => (await withSubject(bob, '0', written)).length > 0);
    expect(await withSubject(bob, '0', written)).toHaveLength(1);
    await page.locator('.adm-dialog-footer .adm-button', { hasText: 'Cancel' }).click();
    await page.getByText('Log out of this mailbox?').waitFor({ state: 'hidden' });
  });

  it('a mail put in the outbox while a replay is sending goes in one more run, not left waiting', async () => {
    const first = `Outbox first ${Date.now()}`;
    const second = `Outbox second ${Date.now()}`;
    await page.goto(`${BASE_URL}/?t=${encodeURIComponent(alice)}&email=alice@demo.test`);
    await page.locator('.mw-mail-row').first().waitFor();
    await page.goto(`${BASE_URL}/#/pages/setting/index`);
    await page.locator('.mw-nav').first().waitFor();
    await expect.poll(() => offlineStoreExists(page), { timeout: 10_000 }).toBe(true);
    // Each send is held until the test lets it go.
    const held: Route[] = [];
    await page.route('**/h5/write/send**', (route) => { held.push(route); });
    try {
      await putOffline(page, 'outbox', outboxMail(`first-${Date.now()}`, first));
      // The connection coming back starts a replay (offline/boot.ts): it reads the outbox and sends the first mail.
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await expect.poll(() => held.length, { timeout: 10_000 }).toBe(1);
      // While that send is under way a second mail joins the outbox, and a replay is asked for
      // again (logout asks the same way, then counts what is left).
      await putOffline(page, 'outbox', outboxMail(`second-${Date.now()}`, second));
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await held[0]!.continue();
      // The run under way read the outbox before the second mail came: one more run sends it.
      await expect.poll(() => held.length, { timeout: 10_000 }).toBe(2);
      await held[1]!.continue();
      await waitUntil(async () => (await withSubject(bob, '0', second)).length > 0);
      expect(await withSubject(bob, '0', first)).toHaveLength(1);
      expect(await withSubject(bob, '0', second)).toHaveLength(1);
    } finally {
      await page.unroute('**/h5/write/send**');
      // A send the test did not reach is let go (one already let go refuses, harmlessly).
      for (const route of held) await route.continue().catch(() => undefined);
    }
  });

  it('logging out online with an empty outbox still sends the queued actions first', async () => {
    const subject = `Star queued before logout ${Date.now()}`;
    await sendMail({ from: 'carol@outside.example', to: 'alice@demo.test', subject, text: 'star me' });
    await waitUntil(async () => (await withSubject(alice, '0', subject)).length === 1);
    const mail = (await withSubject(alice, '0', subject))[0]!;
    expect(mail.star).toBe(false);
    await page.goto(`${BASE_URL}/#/pages/setting/index`);
    await page.locator('.mw-nav').first().waitFor();
    // A star queued offline whose replay has not run yet: put straight into the store.
    await putOffline(page, 'actions', { key: `logout-star-${Date.now()}`, owner: 'alice@demo.test', path: '/mailop/star', data: { ids: mail.id, star: true }, createdAt: Date.now() });
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await page.getByText('Log out of this mailbox?').waitFor();
    // The star reached the server before the question (logout would wipe the queue).
    expect((await withSubject(alice, '0', subject))[0]!.star).toBe(true);
    await page.locator('.adm-dialog-footer .adm-button', { hasText: 'Cancel' }).click();
    await page.getByText('Log out of this mailbox?').waitFor({ state: 'hidden' });
  });

  it('logging out wipes the offline store', async () => {
    await page.goto(`${BASE_URL}/#/pages/setting/index`);
    await page.locator('.mw-nav').first().waitFor();
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('token') ?? '""') as string);
    await page.getByRole('button', { name: /Log out|退出/ }).click();
    // The question comes once the outbox has been checked (offline/logout.ts), not at once.
    const ok = page.locator('.adm-dialog-footer .adm-button', { hasText: /Log out|OK|Confirm|确定|退出/ });
    await ok.first().waitFor();
    await ok.first().click();
    await page.waitForURL(/login/);
    await expect.poll(() => offlineStoreExists(page), { timeout: 10_000 }).toBe(false);
    expect(token).not.toBe('');
  });
});
