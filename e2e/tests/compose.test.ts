import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, MX_DIR } from '../env';
import { api, apiToken, launch, login, phone, screenshot } from '../helpers';

interface Summary {
  id: string;
  mid: string;
  subject: string;
  status: string;
  sendAt: number | null;
}

// Issue 4's flows through the real UI: alice and bob each in their own phone
// browser, one step after another (each builds on the one before).
describe('compose and send', () => {
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  let aliceToken: string;
  let bobToken: string;
  const stamp = Date.now();
  const subject = `Launch plan ${stamp}`;
  const attachment = { name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from(`Step 1: ship\nStep 2: celebrate ${stamp}\n`) };

  const list = (token: string, mid: string) => api<{ list: Summary[] }>('/mail/list', { token, query: { mid, page: '1', size: '50' } }).then((r) => r.list);
  const find = async (token: string, mid: string, text: string) => (await list(token, mid)).find((m) => m.subject === text);

  /** Types into a recipient field and ends the chip with a comma. */
  async function addRecipient(page: Page, field: 'to' | 'cc' | 'bcc', address: string): Promise<void> {
    await page.locator(`#mw-addr-${field}`).fill(`${address},`);
    await page.locator(`.mw-addr[data-field=${field}] .mw-chip[data-address="${address}"]`).waitFor();
  }

  /** Opens a list page afresh (goto alone keeps a list that is already on screen). */
  async function openList(page: Page, route: string): Promise<void> {
    await page.goto(`${BASE_URL}/#${route}`);
    await page.reload();
    await page.locator('.mw-mail-list').waitFor();
  }

  /** A dialog's button, once the dialog saying `text` is up. */
  async function dialogButton(page: Page, text: string, button: string): Promise<void> {
    await page.getByText(text).waitFor();
    await page.locator('.adm-dialog').getByRole('button', { name: button }).click();
  }

  async function openCompose(page: Page): Promise<void> {
    await openList(page, '/pages/list-tab/index');
    await page.locator('.mw-compose-fab').click();
    await page.waitForURL(/#\/pages\/write\/index$/);
    await page.locator('#mw-addr-to').waitFor();
    await page.locator('.mw-editor-content').waitFor();
  }

  async function typeBody(page: Page, text: string): Promise<void> {
    await page.locator('.mw-editor-content').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type(text);
  }

  async function openMail(page: Page, id: string): Promise<void> {
    await page.goto(`${BASE_URL}/#/pages/read-mail/index?mid=${id}`);
    await page.locator('.mw-read-subject').waitFor();
  }

  /** The messages the outside MX has received, raw. */
  function outsideMail(): string[] {
    return readdirSync(MX_DIR).filter((f) => f.endsWith('.eml')).map((f) => readFileSync(join(MX_DIR, f), 'utf8'));
  }

  beforeAll(async () => {
    browser = await launch();
    ({ page: alice } = await phone(browser));
    ({ page: bob } = await phone(browser));
    [aliceToken, bobToken] = await Promise.all([apiToken('alice@demo.test'), apiToken('bob@demo.test')]);
    // These flows are the no-undo case (a 0 s window): the result pages of the spec (issue 14).
    await Promise.all([aliceToken, bobToken].map((token) => api('/setting/undo-send', { token, form: { seconds: '0' } })));
    await login(alice, 'alice@demo.test');
    await login(bob, 'bob@demo.test');
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(async () => {
      await screenshot(alice, `compose-${task.name}-alice`);
      await screenshot(bob, `compose-${task.name}-bob`);
    });
  });

  it('alice writes to bob with an attachment; bob reads it and downloads the file', async () => {
    await openCompose(alice);
    await addRecipient(alice, 'to', 'bob@demo.test');
    await alice.locator('#mw-subject').fill(subject);
    await typeBody(alice, 'Hi Bob, the plan is in the file.');

    // Attachments are picked on their own page; the mail is still there on return.
    await alice.locator('[data-option=attachments]').click();
    await alice.waitForURL(/other-attach-upload/);
    await alice.locator('input[data-role=attachments]').setInputFiles(attachment);
    await alice.locator('[data-attach-row=done]', { hasText: 'plan.txt' }).waitFor();
    await alice.getByRole('button', { name: 'Done' }).click();
    await alice.waitForURL(/#\/pages\/write\/index$/);
    expect(await alice.locator('#mw-subject').inputValue()).toBe(subject);
    await alice.locator('.mw-chip[data-address="bob@demo.test"]').waitFor();
    await alice.locator('[data-attach-row=done]', { hasText: 'plan.txt' }).waitFor();
    expect(await alice.locator('.mw-editor-content').textContent()).toContain('the plan is in the file');

    await alice.locator('.mw-send').click();
    await alice.waitForURL(/#\/pages\/modules\/write-result\/index$/);
    await alice.getByText('Sent successfully').first().waitFor();

    await expect.poll(() => find(bobToken, '0', subject), { timeout: 15_000 }).toBeDefined();
    await openList(bob, '/pages/list-tab/index');
    await bob.locator('.mw-mail-row', { hasText: subject }).click();
    await bob.locator('.mw-read-subject', { hasText: subject }).waitFor();
    expect(await bob.locator('.mw-read-name').textContent()).toMatch(/alice/i);
    const item = bob.locator('.mw-attachments .adm-list-item', { hasText: 'plan.txt' });
    // The row opens the preview (issue 14); its download button saves the file.
    const [download] = await Promise.all([bob.waitForEvent('download'), item.locator('.mw-download').click()]);
    expect(download.suggestedFilename()).toBe('plan.txt');
    expect(readFileSync(await download.path(), 'utf8')).toBe(attachment.buffer.toString());
  });

  it('bob replies; alice sees the reply with its conversation, and bob’s original shows it was replied to', async () => {
    await bob.getByRole('button', { name: 'Reply', exact: true }).click();
    await bob.waitForURL(/#\/pages\/write\/index\?reply=/);
    await expect.poll(() => bob.locator('#mw-subject').inputValue()).toBe(`Re: ${subject}`);
    await bob.locator('.mw-addr[data-field=to] .mw-chip[data-address="alice@demo.test"]').waitFor();
    expect(await bob.locator('.mw-editor-content blockquote').textContent()).toContain('the plan is in the file');
    // Spec §5: a reply of nothing but the quote is refused.
    await bob.locator('.mw-send').click();
    await bob.getByRole('alert').filter({ hasText: 'Reply must not be empty' }).waitFor();
    await typeBody(bob, 'Looks good to me.');
    await bob.getByRole('alert').filter({ hasText: 'Reply must not be empty' }).waitFor({ state: 'detached' });
    await bob.locator('.mw-send').click();
    await bob.waitForURL(/#\/pages\/modules\/reply-success\/index$/);
    await bob.getByText('Reply successful').first().waitFor();

    await expect.poll(() => find(aliceToken, '0', `Re: ${subject}`), { timeout: 15_000 }).toBeDefined();
    await openList(alice, '/pages/list-tab/index');
    await alice.locator('.mw-mail-row', { hasText: `Re: ${subject}` }).click();
    await alice.locator('.mw-read-subject', { hasText: `Re: ${subject}` }).waitFor();
    await alice.locator('.mw-stack-count').getByText(/Conversation \(\d+\)/).waitFor();
    // The original (alice's Sent copy) is stacked above the reply (issue 14) and opens from there.
    const original = alice.locator('.mw-stack-card').first();
    await original.locator('.mw-stack-head').click();
    await original.locator('.mw-stack-open').click();
    await alice.locator('.mw-read-subject', { hasText: subject }).waitFor();
    expect(await alice.locator('.mw-read-subject').textContent()).not.toContain('Re:');

    await expect.poll(async () => (await find(bobToken, '0', subject))?.status).toBe('replied');
    await openList(bob, '/pages/list-tab/index');
    await bob.locator('.mw-mail-row', { hasText: subject }).filter({ hasNotText: 'Re:' }).locator('.mw-status[data-status=replied]').waitFor();
  });

  it('alice forwards it with its attachment to an outside address, and the outside server receives it', async () => {
    const sent = await find(aliceToken, '1', subject);
    expect(sent).toBeDefined();
    await openMail(alice, sent!.id);
    // The sent copy lists who got it.
    await alice.locator('.mw-deliveries [data-delivery=sent]', { hasText: 'bob@demo.test' }).waitFor();
    await alice.getByRole('button', { name: 'Forward' }).click();
    await alice.waitForURL(/#\/pages\/write\/index\?forward=/);
    await expect.poll(() => alice.locator('#mw-subject').inputValue()).toBe(`Fw: ${subject}`);
    await alice.locator('[data-attach-row=done]', { hasText: 'plan.txt' }).waitFor();
    await addRecipient(alice, 'to', 'someone@outside.test');
    await typeBody(alice, 'Forwarding our plan.');
    await alice.locator('.mw-send').click();
    await alice.waitForURL(/#\/pages\/modules\/write-result\/index$/);

    let received: string | undefined;
    await expect.poll(() => {
      received = outsideMail().find((raw) => raw.includes(`Subject: Fw: ${subject}`));
      return received !== undefined;
    }, { timeout: 30_000 }).toBe(true);
    expect(received).toContain('X-Mx-Envelope-To: someone@outside.test');
    expect(received).toMatch(/filename="?plan\.txt/);
    // The file's bytes travel either base64-encoded or, for plain text, as they are.
    const unfolded = received!.replace(/\r?\n/g, '');
    expect(unfolded.includes(attachment.buffer.toString('base64')) || received!.includes(`Step 2: celebrate ${stamp}`)).toBe(true);

    // The forward's sent copy shows the outside recipient as delivered; the original is marked forwarded.
    const forward = await find(aliceToken, '1', `Fw: ${subject}`);
    await openMail(alice, forward!.id);
    await alice.locator('.mw-deliveries [data-delivery=sent]', { hasText: 'someone@outside.test' }).waitFor({ timeout: 30_000 });
  });

  it('a timed send a minute ahead reaches bob when its time comes', async () => {
    const timed = `Timed note ${stamp}`;
    await openCompose(alice);
    await addRecipient(alice, 'to', 'bob@demo.test');
    await alice.locator('#mw-subject').fill(timed);
    await typeBody(alice, 'This one waits a minute.');
    // The picker first offers the first whole minute at least 30 s away: 30–90 s from now.
    const opened = Date.now();
    await alice.locator('[data-option=timed] .mw-option-main').click();
    await alice.locator('.adm-picker-header-button', { hasText: 'OK' }).click();
    await alice.locator('[data-option=timed].is-on').waitFor();
    // Every option of compose, the timed send's clear button included, is a 44×44 target.
    const small = await alice.locator('.mw-compose-options a[role=button], .mw-compose-options label, .mw-option-clear').evaluateAll((els) => els
      .map((el) => ({ what: `${el.className} ${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim()}`, w: el.getBoundingClientRect().width, h: el.getBoundingClientRect().height }))
      .filter((t) => t.w < 44 || t.h < 44));
    expect(small).toEqual([]);
    await screenshot(alice, 'compose-options-timed-en');
    await alice.locator('.mw-send').click();
    await alice.waitForURL(/#\/pages\/modules\/write-result\/index\?at=\d+$/);
    await alice.getByText(/Scheduled for \d{4}-\d{2}-\d{2} \d{2}:\d{2}/).waitFor();
    const at = Number(new URL(alice.url().replace('#', '')).searchParams.get('at'));
    expect(at * 1000).toBeGreaterThan(Date.now());
    expect(at * 1000 - opened).toBeGreaterThanOrEqual(30_000);
    expect(at * 1000 - opened).toBeLessThanOrEqual(90_000);

    // Waiting in Sent, labelled as scheduled, with its time on the read page.
    const waiting = await find(aliceToken, '1', timed);
    expect(waiting?.sendAt).toBe(at);
    expect(await find(bobToken, '0', timed)).toBeUndefined();
    await openList(alice, '/pages/list/index?mid=1');
    await alice.locator('.mw-mail-row', { hasText: timed }).locator('.mw-status[data-status=scheduled]').waitFor();
    await openMail(alice, waiting!.id);
    await alice.locator('.mw-scheduled-bar').waitFor();

    // Its time comes: the server's timed-send clock moves to just past it, instead of the test
    // waiting up to 90 s (DEV_CLOCK, features/dev-clock). Until then it stays where it is.
    expect(await find(bobToken, '0', timed)).toBeUndefined();
    await api('/dev/clock', { token: aliceToken, form: { offsetMs: String(Math.max(0, at * 1000 + 1_000 - Date.now())) } });
    try {
      await expect.poll(() => find(bobToken, '0', timed), { timeout: 30_000, interval: 500 }).toBeDefined();
      await openList(alice, '/pages/list/index?mid=1');
      await alice.locator('.mw-mail-row', { hasText: timed }).locator('.mw-status[data-status=scheduled]').waitFor({ state: 'detached' });
    } finally {
      await api('/dev/clock', { token: aliceToken, form: { offsetMs: '0' } });
    }
  });

  it('a timed send can be taken back to Drafts and edited', async () => {
    const later = `Later note ${stamp}`;
    const sendAt = Math.floor(Date.now() / 1000) + 3600;
    const { id } = await api<{ id: string }>('/write/send', { token: aliceToken, form: { to: 'bob@demo.test', subject: later, html: '<p>later</p>', sendAt: String(sendAt) } });
    await openMail(alice, id);
    await alice.locator('.mw-scheduled-bar').getByRole('button', { name: 'Edit' }).click();
    await alice.waitForURL(/#\/pages\/write\/index\?draft=/);
    await expect.poll(() => alice.locator('#mw-subject').inputValue()).toBe(later);
    expect(await find(aliceToken, '2', later)).toBeDefined();
    expect(await find(aliceToken, '1', later)).toBeUndefined();
  });

  it('recalls an unread mail from its sent copy', async () => {
    const recall = `Recall me ${stamp}`;
    const { id } = await api<{ id: string }>('/write/send', { token: aliceToken, form: { to: 'bob@demo.test', subject: recall, html: '<p>oops</p>' } });
    await expect.poll(() => find(bobToken, '0', recall), { timeout: 15_000 }).toBeDefined();
    await openMail(alice, id);
    await alice.locator('.mw-recall').click();
    await dialogButton(alice, 'Recall this mail?', 'Recall');
    const result = alice.locator('.mw-recall-results li[data-result=recalled]', { hasText: 'bob@demo.test' });
    await result.waitFor();
    expect(await result.textContent()).toContain('recalled');
    await alice.locator('.adm-dialog').getByRole('button', { name: 'OK' }).click();
    await alice.locator('.mw-deliveries [data-delivery=recalled]', { hasText: 'bob@demo.test' }).waitFor();
    expect(await find(bobToken, '0', recall)).toBeUndefined();
  });

  it('checks the form before sending: recipients, addresses, subject and the attachment warning; drafts keep the mail', async () => {
    await openCompose(alice);
    // Every field's label shows whole in English ("Subject" was cut to "Subj…").
    const cut = await alice.locator('.mw-compose-label').evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent));
    expect(cut).toEqual([]);
    await alice.locator('.mw-send').click();
    await alice.getByRole('alert').filter({ hasText: 'Add at least one recipient' }).waitFor();
    await alice.getByRole('alert').filter({ hasText: 'Mail subject must not be empty' }).waitFor();

    await alice.locator('#mw-addr-to').fill('bob@');
    await alice.locator('#mw-subject').click(); // leaving the field makes the chip
    const bad = alice.locator('.mw-chip.is-invalid[data-address="bob@"]');
    await bad.waitFor();
    const draftSubject = `Numbers ${stamp}`;
    await alice.locator('#mw-subject').fill(draftSubject);
    await alice.locator('.mw-send').click();
    await alice.getByRole('alert').filter({ hasText: 'Recipient addresses must be valid' }).waitFor();
    expect(alice.url()).toMatch(/#\/pages\/write\/index$/);

    await alice.getByRole('button', { name: 'Remove bob@' }).click();
    await addRecipient(alice, 'to', 'bob@demo.test');
    await typeBody(alice, 'The figures are in the attachment.');
    await alice.locator('.mw-send').click();
    await dialogButton(alice, 'mentions an attachment', 'Cancel');
    await alice.getByText('mentions an attachment').waitFor({ state: 'detached' });
    expect(alice.url()).toMatch(/#\/pages\/write\/index$/);

    // Autosave puts it into Drafts within a few seconds…
    await alice.locator('.mw-compose-saved').waitFor({ timeout: 15_000 });
    const draft = await find(aliceToken, '2', draftSubject);
    expect(draft).toBeDefined();
    // …and opening it from the Drafts list continues it on the compose page.
    await openList(alice, '/pages/list/index?mid=2');
    await alice.locator('.mw-mail-row', { hasText: draftSubject }).click();
    await alice.waitForURL(/#\/pages\/write\/index\?draft=/);
    await expect.poll(() => alice.locator('#mw-subject').inputValue()).toBe(draftSubject);
    await alice.locator('.mw-chip[data-address="bob@demo.test"]').waitFor();
    expect(await alice.locator('.mw-editor-content').textContent()).toContain('The figures are in the attachment.');

    // Sending it anyway removes the draft.
    await alice.locator('.mw-send').click();
    await dialogButton(alice, 'mentions an attachment', 'Send anyway');
    await alice.waitForURL(/#\/pages\/modules\/write-result\/index$/);
    await expect.poll(async () => (await list(aliceToken, '2')).filter((m) => m.subject === draftSubject).length).toBe(0);
    await expect.poll(() => find(bobToken, '0', draftSubject), { timeout: 15_000 }).toBeDefined();
  });
});
