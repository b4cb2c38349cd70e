import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REQUEST_TIMEOUT_MS, type ComposeData, type Mail } from '@mailwing/shared';
import { readdirSync, readFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import { join } from 'node:path';
import { BASE_URL, MX_DIR } from '../env';
import { api, apiToken, launch, phone, screenshot, smallTargets, waitUntil } from '../helpers';
import { keptInDb, offlineStoreExists, outboxMail, putOffline } from '../offline-store';

// Issue 15, scope 3 (leftovers): Reply and Forward from a kept mail offline. Alice opens two
// mails from bob online; offline (the app restarted from the service worker) she replies to one
// and forwards the other with its attachment. The compose page starts as it would online (the
// offline layer answers write/load from the kept mail with the server's own rule), the mails
// wait in the outbox, and back online each is sent once: threaded as a reply, and the forward
// with the attachment's bytes. Then: logging out while the server hangs shows a loading toast,
// and after the request timeout the "N mails waiting" dialog. In English and in Chinese.

interface Summary { id: string; subject: string }

const list = (token: string, mid: string) => api<{ list: Summary[] }>('/mail/list', { token, query: { mid, page: '1', size: '100' } }).then((r) => r.list);
const withSubject = async (token: string, mid: string, subject: string) => (await list(token, mid)).filter((m) => m.subject === subject);
const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

async function uploadAs(token: string, name: string, body: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([body], { type: 'text/plain' }), name);
  const res = await fetch(`${BASE_URL}/h5/write/upload?t=${token}`, { method: 'POST', body: form });
  const r = (await res.json()) as { code: number; data: { id: string } };
  if (r.code !== 200) throw new Error(`upload refused: ${JSON.stringify(r)}`);
  return r.data.id;
}

/** What the outside MX stand-in took for `to` with this subject (raw messages). */
const outside = (to: string, subject: string) => readdirSync(MX_DIR).map((f) => readFileSync(join(MX_DIR, f), 'utf8'))
  .filter((m) => m.startsWith(`X-Mx-Envelope-To: ${to}`) && m.includes(subject));

/** Opens the app as alice in `lang` (account and device), with the service worker active. */
async function openAs(page: Page, alice: string, lang: 'en' | 'zh'): Promise<void> {
  await api('/setting/modifylanguage', { token: alice, query: { language: lang } });
  await page.goto(`${BASE_URL}/?t=${encodeURIComponent(alice)}&email=alice@demo.test`);
  await page.locator('.mw-mail-row').first().waitFor();
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
  await page.reload();
  await page.locator('.mw-mail-row').first().waitFor();
}

describe('offline reply and forward', () => {
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
    onTestFailed(() => screenshot(page, `offline-reply-failed-${task.name}`));
    await context.setOffline(false);
  });
  afterAll(async () => {
    await api('/setting/modifylanguage', { token: alice, query: { language: before } }).catch(() => undefined);
    await context?.setOffline(false).catch(() => undefined);
    await browser?.close();
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`replies to and forwards kept mail offline; back online each is sent once, threaded, with the attachment (${lang})`, async () => {
      const stamp = `${lang}-${Date.now()}`;
      const toReply = `Reply me ${stamp}`;
      const toForward = `Forward me ${stamp}`;
      const fileName = `notes-${lang}.txt`;
      const fileBytes = `forwarded bytes ${stamp} 中文`;
      await api('/write/send', { token: bob, form: { to: 'alice@demo.test', cc: 'admin@demo.test, carol@outside.example', subject: toReply, html: `<p>Question to answer ${stamp}</p>` } });
      const fileId = await uploadAs(bob, fileName, fileBytes);
      await api('/write/send', { token: bob, form: { to: 'alice@demo.test', subject: toForward, html: `<p>See the file ${stamp}</p>`, attachIds: fileId } });
      await waitUntil(async () => (await withSubject(alice, '0', toReply)).length === 1 && (await withSubject(alice, '0', toForward)).length === 1);
      const replyId = (await withSubject(alice, '0', toReply))[0]!.id;
      const forwardId = (await withSubject(alice, '0', toForward))[0]!.id;

      await openAs(page, alice, lang);
      await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), { timeout: 20_000 }).toBe('activated');
      // Opened online: kept.
      for (const subject of [toReply, toForward]) {
        await page.locator('.mw-mail-row', { hasText: subject }).click();
        await page.locator('.mw-read-subject', { hasText: subject }).waitFor();
        await page.goBack();
        await page.locator('.mw-mail-row', { hasText: subject }).waitFor();
      }
      await expect.poll(async () => (await keptInDb(page, 'alice@demo.test', replyId)) && (await keptInDb(page, 'alice@demo.test', forwardId)), { timeout: 10_000 }).toBe(true);

      // What compose starts with online, in this page's language and time zone.
      const tz = String(await page.evaluate(() => -new Date().getTimezoneOffset()));
      const online = (mid: string, mode: string) => api<ComposeData>('/write/load', { token: alice, query: { mid, mode, lang, tz } });
      const onlineReply = await online(replyId, 'replyAll');
      const onlineForward = await online(forwardId, 'forward');

      await context.setOffline(true);
      await page.reload();
      await page.locator('.mw-offline-banner').waitFor();

      // Reply all, offline.
      await page.locator('.mw-mail-row', { hasText: toReply }).click();
      await page.locator('.mw-read-subject', { hasText: toReply }).waitFor();
      await page.locator('.mw-read-actions [data-action=reply-all]').click();
      await page.locator('#mw-subject').waitFor();
      expect(await page.locator('#mw-subject').inputValue()).toBe(onlineReply.subject);
      expect(await page.locator('#mw-subject').inputValue()).toBe(`Re: ${toReply}`);
      const chips = (field: string) => page.locator(`.mw-addr[data-field=${field}] .mw-chip`).evaluateAll((els) => els.map((e) => e.getAttribute('data-address')));
      expect(await chips('to')).toEqual(onlineReply.to.map((a) => a.address));
      expect(await chips('cc')).toEqual(onlineReply.cc.map((a) => a.address));
      expect(await chips('to')).toEqual(['bob@demo.test']);
      expect(await chips('cc')).toEqual(['admin@demo.test', 'carol@outside.example']);
      const editor = page.locator('.mw-editor-content');
      await editor.getByText(`Question to answer ${stamp}`).waitFor();
      const header = decode(/<p>([^<]*(?:wrote:|写道：))<\/p>/.exec(onlineReply.html)![1]!);
      expect(await editor.innerText()).toContain(header);
      expect(await page.locator('.mw-editor-content blockquote').count()).toBe(1);
      await screenshot(page, `offline-reply-${lang}-compose`);
      await editor.locator('p').first().click();
      await page.keyboard.type(`Answer written offline ${stamp}`);
      await page.locator('.mw-send').click();
      await page.locator('.mw-offline-outbox').waitFor();
      expect(await page.locator('.mw-offline-outbox').textContent()).toContain('1');

      // Forward, offline: the original's attachment comes along, as online.
      await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
      await page.locator('.mw-mail-row', { hasText: toForward }).click();
      await page.locator('.mw-read-subject', { hasText: toForward }).waitFor();
      await page.locator('.mw-read-actions [data-action=forward]').click();
      await page.locator('#mw-subject').waitFor();
      expect(await page.locator('#mw-subject').inputValue()).toBe(onlineForward.subject);
      expect(await page.locator('.mw-attach-name').allTextContents()).toEqual(onlineForward.attachments.map((a) => a.name));
      expect(onlineForward.attachments.map((a) => a.name)).toEqual([fileName]);
      await page.locator('.mw-editor-content').getByText(`See the file ${stamp}`).waitFor();
      await page.locator('#mw-addr-to').fill('bob@demo.test,');
      await page.locator('.mw-addr[data-field=to] .mw-chip[data-address="bob@demo.test"]').waitFor();
      await page.locator('.mw-editor-content p').first().click();
      await page.keyboard.type(`Forwarded offline ${stamp}`);
      await screenshot(page, `offline-forward-${lang}-compose`);
      await page.locator('.mw-send').click();
      await expect.poll(() => page.locator('.mw-offline-outbox').textContent(), { timeout: 10_000 }).toContain('2');

      await page.locator('.mw-offline-outbox').click();
      await page.locator('[data-outbox=waiting]', { hasText: `Re: ${toReply}` }).waitFor();
      await page.locator('[data-outbox=waiting]', { hasText: `Fw: ${toForward}` }).waitFor();
      await screenshot(page, `offline-reply-${lang}-outbox`);
      expect(await withSubject(bob, '0', `Re: ${toReply}`)).toHaveLength(0);
      expect(await withSubject(bob, '0', `Fw: ${toForward}`)).toHaveLength(0);

      // Back online: each sent once.
      await context.setOffline(false);
      await waitUntil(async () => (await withSubject(bob, '0', `Re: ${toReply}`)).length > 0 && (await withSubject(bob, '0', `Fw: ${toForward}`)).length > 0, 20_000);
      await expect.poll(() => page.locator('.mw-offline-banner').isHidden(), { timeout: 10_000 }).toBe(true);
      await page.waitForTimeout(1500); // a second send would come within the replay's own run
      expect(await withSubject(bob, '0', `Re: ${toReply}`)).toHaveLength(1);
      expect(await withSubject(bob, '0', `Fw: ${toForward}`)).toHaveLength(1);
      expect(await withSubject(alice, '1', `Re: ${toReply}`)).toHaveLength(1);
      expect(await withSubject(alice, '1', `Fw: ${toForward}`)).toHaveLength(1);
      // Reply all: admin (Cc of the original) has it too, once.
      const admin = await apiToken('admin@demo.test');
      expect(await withSubject(admin, '0', `Re: ${toReply}`)).toHaveLength(1);

      // Threaded as a reply: In-Reply-To names the original, and it joins the original's conversation.
      const original = await api<Mail>('/read/index', { token: alice, query: { mid: replyId } });
      // The outside Cc got it over SMTP, once: its In-Reply-To and References name the original.
      await waitUntil(async () => outside('carol@outside.example', stamp).some((m) => /^Subject: Re:/m.test(m)), 20_000);
      const sentOut = outside('carol@outside.example', stamp).filter((m) => /^Subject: Re:/m.test(m));
      expect(sentOut).toHaveLength(1);
      const parsed = await simpleParser(sentOut[0]!);
      expect(parsed.inReplyTo).toBe(original.messageId);
      expect([parsed.references ?? []].flat()).toContain(original.messageId);
      expect(parsed.text).toContain(`Answer written offline ${stamp}`);
      const answered = (await withSubject(bob, '0', `Re: ${toReply}`))[0]!;
      const bobsReply = await api<Mail>('/read/index', { token: bob, query: { mid: answered.id } });
      expect(bobsReply.thread.map((t) => t.subject)).toContain(toReply);
      expect(original.status).toBe('replied');

      // The forward arrived with the attachment's bytes.
      const fwd = (await withSubject(bob, '0', `Fw: ${toForward}`))[0]!;
      const fwdMail = await api<Mail>('/read/index', { token: bob, query: { mid: fwd.id } });
      const files = fwdMail.attachments.filter((a) => !a.inline);
      expect(files.map((a) => a.name)).toEqual([fileName]);
      const bytes = await (await fetch(`${BASE_URL}/h5/attach/download?id=${files[0]!.id}&t=${bob}`)).text();
      expect(bytes).toBe(fileBytes);
      expect((await api<Mail>('/read/index', { token: alice, query: { mid: forwardId } })).status).toBe('forwarded');
    });
  }

  for (const lang of ['en', 'zh'] as const) {
    it(`logging out while the server hangs shows a loading toast, then after the request timeout the outbox dialog (${lang})`, async () => {
      // A page of its own with Playwright's clock: the timeout is reached by moving the clock, not by waiting.
      const own = await phone(browser);
      try {
        await own.context.clock.install();
        const p = own.page;
        await openAs(p, alice, lang);
        await p.goto(`${BASE_URL}/#/pages/setting/index`);
        await p.locator('.mw-nav').first().waitFor();
        await expect.poll(() => offlineStoreExists(p), { timeout: 10_000 }).toBe(true);
        const subject = `Hanging at logout ${lang}-${Date.now()}`;
        // The device is online but the server never answers the send. The route goes in before
        // the mail: a replay the app started itself (at start-up, or when the session settled)
        // may still be reading the outbox, and a CI run once saw it send the mail for real
        // before the route was there, so the logout found nothing hanging.
        let hung = 0;
        await p.route('**/h5/write/send**', () => { hung += 1; });
        // A mail left in the outbox (put straight into the store, not through compose).
        await putOffline(p, 'outbox', outboxMail(`hang-${Date.now()}`, subject));

        await p.getByRole('button', { name: lang === 'en' ? 'Log out' : '退出登录', exact: true }).click();
        const toast = p.locator('.adm-toast-main', { hasText: lang === 'en' ? 'Sending the mail in the outbox' : '正在发送发件箱中的邮件' });
        await toast.waitFor();
        await expect.poll(() => hung, { timeout: 10_000 }).toBe(1);
        expect(await p.locator('.adm-dialog').count()).toBe(0);
        await screenshot(p, `offline-logout-progress-${lang}`);

        // The request timeout passes: the toast goes and the usual outbox question comes.
        await own.context.clock.fastForward(REQUEST_TIMEOUT_MS);
        const dialog = p.locator('.adm-dialog');
        await dialog.getByText(lang === 'en' ? '1 mail is waiting in the outbox' : '发件箱中有 1 封邮件').waitFor();
        await toast.waitFor({ state: 'hidden' });
        expect(await toast.count()).toBe(0);
        await screenshot(p, `offline-logout-progress-${lang}-dialog`);
        await dialog.locator('.adm-dialog-button', { hasText: lang === 'en' ? 'Cancel' : '取消' }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(p.url()).toContain('/pages/setting/index');
        expect(await withSubject(bob, '0', subject)).toHaveLength(0);
      } finally {
        await own.context.close();
      }
    });
  }

  for (const lang of ['en', 'zh'] as const) {
    it(`compose's options open: Cc/Bcc, urgent, and a timed send picked (${lang})`, async () => {
      await openAs(page, alice, lang);
      await page.goto(`${BASE_URL}/#/pages/write/index`);
      await page.locator('#mw-addr-to').waitFor();
      await page.locator('.mw-compose-more').click();
      await page.locator('.mw-addr[data-field=bcc]').waitFor();
      await page.locator('.mw-compose-options .adm-switch').click();
      await page.locator('.mw-urgent-label.is-on').waitFor();
      await page.locator('[data-option=timed] .mw-option-main').click();
      const picker = page.locator('.adm-picker');
      await picker.waitFor();
      await page.waitForTimeout(400); // the sheet's slide-in, for the picture
      await screenshot(page, `compose-options-${lang}-picker`);
      await picker.locator('.adm-picker-header-button', { hasText: lang === 'en' ? 'OK' : '确定' }).click();
      await picker.waitFor({ state: 'hidden' });
      await page.locator('[data-option=timed].is-on .mw-option-clear').waitFor();
      expect(await page.locator('[data-option=timed]').innerText()).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d/);
      expect(await smallTargets(page, '.mw-compose-options .mw-option, .mw-compose-options .mw-option-clear')).toEqual([]);
      await screenshot(page, `compose-options-${lang}`);
      // Leave without a draft behind: clear what was typed (nothing) and the timed send.
      await page.locator('[data-option=timed] .mw-option-clear').click();
    });
  }
});
