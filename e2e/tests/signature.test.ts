import { afterAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BASE_URL, DEMO_PASSWORD } from '../env';
import { api, apiToken, login, phoneSuite, screenshot } from '../helpers';

// Issue 16, signatures and templates through the real UI at 390×844: set a signature,
// reply to a mail and find it in the reply; insert a template in two taps; switch the
// sender to a bound mailbox and see its signature take the old one's place.
const suite = phoneSuite('signature');
const stamp = Date.now();
const aliceSig = `Alice Wang, Demo Co ${stamp}`;
const bobSig = `Bob Lee, Support ${stamp}`;
const undo: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const step of undo.reverse()) await step().catch(() => undefined);
});

interface Sig { id: string; name: string }
async function removeSignatures(token: string): Promise<void> {
  const { list } = await api<{ list: Sig[] }>('/signature/list', { token });
  for (const s of list) await api('/signature/delete', { token, form: { id: s.id } });
}

const editorText = (page: Page) => page.locator('.mw-editor-content').innerText();
const signatureText = (page: Page) => page.locator('.mw-editor-content .mw-signature').innerText();

it('sets a signature in Settings and finds it in a reply, above the quoted mail', async () => {
  const { page } = suite;
  const [aliceToken, bobToken] = await Promise.all([apiToken('alice@demo.test'), apiToken('bob@demo.test')]);
  undo.push(() => removeSignatures(aliceToken));
  // The reply ends on the spec's reply-success page: the no-undo case (issue 14).
  await api('/setting/undo-send', { token: aliceToken, form: { seconds: '0' } });
  const subject = `Signature check ${stamp}`;
  await api('/write/send', { token: bobToken, form: { to: 'alice@demo.test', subject, html: '<p>Can you confirm the date?</p>' } });

  await login(page, 'alice@demo.test');
  await page.goto(`${BASE_URL}/#/pages/setting/index`);
  await page.locator('[data-group=mail-rules] [data-row=signature]').click();
  await page.waitForURL(/#\/pages\/modules\/setting-signature\/index$/);
  await page.locator('[data-action=new-signature]').click();
  await page.locator('#mw-sig-name').fill('Work');
  await page.locator('.mw-texts-sheet .mw-editor-content').click();
  await page.keyboard.type(aliceSig);
  await page.locator('.mw-texts-sheet [data-action=save]').click();
  // The first signature becomes the new-mail default; replies use "same as new".
  await page.locator('[data-signature=Work] .mw-texts-badge').waitFor();
  await expect.poll(() => page.locator('[data-row=default-new]').innerText()).toContain('Work');
  expect(await page.locator('[data-row=default-reply]').innerText()).toContain('Same as new mail');

  const mail = (await api<{ list: Array<{ id: string; subject: string }> }>('/mail/list', { token: aliceToken, query: { mid: '0', page: '1', size: '20' } }))
    .list.find((x) => x.subject === subject)!;
  await page.goto(`${BASE_URL}/#/pages/read-mail/index?mid=${mail.id}`);
  await page.locator('.mw-read-subject').waitFor();
  await page.getByRole('button', { name: 'Reply', exact: true }).click();
  await page.waitForURL(/#\/pages\/write\/index\?reply=/);
  await page.locator('.mw-editor-content blockquote').waitFor();
  await expect.poll(() => signatureText(page)).toBe(aliceSig);
  const html = await page.locator('.mw-editor-content').innerHTML();
  expect(html.indexOf('mw-signature')).toBeLessThan(html.indexOf('<blockquote'));

  // It goes out with the reply.
  await page.locator('.mw-editor-content').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('Confirmed.');
  await page.locator('.mw-send').click();
  await page.waitForURL(/#\/pages\/modules\/reply-success\/index$/);
  await expect.poll(async () => {
    const list = (await api<{ list: Array<{ id: string; subject: string }> }>('/mail/list', { token: bobToken, query: { mid: '0', page: '1', size: '20' } })).list;
    const reply = list.find((x) => x.subject === `Re: ${subject}`);
    return reply ? (await api<{ html: string }>('/read/index', { token: bobToken, query: { mid: reply.id } })).html : '';
  }, { timeout: 15_000 }).toContain(aliceSig);
});

it('inserts a template in two taps, then swaps the signature when the sender changes to a bound mailbox', async () => {
  const { page } = suite;
  const [aliceToken, bobToken] = await Promise.all([apiToken('alice@demo.test'), apiToken('bob@demo.test')]);
  const tpl = await api<{ id: string }>('/template/create', { token: aliceToken, form: { name: `Greeting ${stamp}`, subject: 'Hello {{recipient.name}}', html: '<p>Dear {{recipient.name}},</p>' } });
  undo.push(() => api('/template/delete', { token: aliceToken, form: { id: tpl.id } }));
  const bobSigRow = await api<{ id: string }>('/signature/create', { token: bobToken, form: { name: 'Support', html: `<p>${bobSig}</p>` } });
  undo.push(() => removeSignatures(bobToken));
  await api('/signature/defaults', { token: bobToken, form: { newMail: bobSigRow.id } });

  // Bind bob's mailbox into alice's app, as a user would.
  await page.goto(`${BASE_URL}/#/pages/mbox/bind`);
  undo.push(() => api('/login/unbind', { token: aliceToken, form: { email: 'bob@demo.test' } }));
  await page.locator('input[name=email]').fill('bob@demo.test');
  await page.locator('input[name=password]').fill(DEMO_PASSWORD);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/#\/pages\/mbox\/mbox-list/);

  await page.goto(`${BASE_URL}/#/pages/write/index`);
  await page.reload();
  await expect.poll(() => signatureText(page)).toBe(aliceSig);
  await page.locator('#mw-addr-to').fill('carol@outside.test,');
  await page.locator('.mw-addr[data-field=to] .mw-chip[data-address="carol@outside.test"]').waitFor();
  // Tap 1: the toolbar button; tap 2: the template.
  await page.locator('[data-action=insert-template]').click();
  await page.locator(`.mw-tpl-sheet [data-template="Greeting ${stamp}"]`).click();
  await expect.poll(() => editorText(page)).toContain('Dear carol@outside.test,');
  expect(await page.locator('#mw-subject').inputValue()).toBe('Hello carol@outside.test');

  await page.locator('[data-row=from] a').click();
  await page.locator('.adm-action-sheet').getByText('bob@demo.test').click();
  await expect.poll(() => signatureText(page), { timeout: 15_000 }).toBe(bobSig);
  const text = await editorText(page);
  expect(text).toContain('Dear carol@outside.test,');
  expect(text).not.toContain(aliceSig);
  expect(await page.locator('.mw-editor-content .mw-signature').count()).toBe(1);
  expect(await page.locator('[data-row=from]').innerText()).toContain('bob@demo.test');
  await screenshot(page, 'signature-compose-after-switch');
});
