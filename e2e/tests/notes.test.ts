import { afterAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BASE_URL } from '../env';
import { api, apiToken, login, phoneSuite, screenshot } from '../helpers';

// Issue 18, cloud notes through the real UI at 390×844: write a note, lock it with a
// reading password, see its title hidden in the list, unlock it (after one wrong try,
// counted by the server) and read it. Screenshots of the pages in en and zh.
const suite = phoneSuite('notes');
const stamp = Date.now();
const title = `Bank details ${stamp}`;
const body = `Account PIN 4711 ${stamp}`;
const password = 'river-stone-42';
let token = '';
let restoreLanguage: (() => Promise<unknown>) | null = null;

afterAll(async () => {
  await restoreLanguage?.().catch(() => undefined);
  if (!token) return;
  const { list } = await api<{ list: Array<{ id: string }> }>('/note/list', { token, query: { size: '100' } });
  for (const n of list) await api('/note/delete', { token, form: { id: n.id } }).catch(() => undefined);
});

const row = (page: Page) => page.locator('.mw-cn-row[data-locked]').first();

it('creates a note, locks it with a password, hides it in the list, unlocks it and reads it', async () => {
  const { page } = suite;
  token = await apiToken('alice@demo.test');
  await login(page, 'alice@demo.test');
  await page.goto(`${BASE_URL}/#/pages/mbox/mbox-list`);
  await page.locator('[data-group=apps] [data-row=notes]').scrollIntoViewIfNeeded();
  await screenshot(page, 'notes-en-mailbox-tab');
  await page.locator('[data-group=apps] [data-row=notes]').click();
  await page.waitForURL(/#\/pages\/modules\/notes\/index/);
  await page.locator('.mw-state, .mw-cn-list').first().waitFor();
  await screenshot(page, 'notes-en-empty');
  await api('/note/create', { token, form: { title: 'Weekly sync 周会纪要', html: '<p>Q3 report: 讨论第三季度报告的进度</p>', tags: 'work' } });

  await page.locator('[data-action=new-note]').click();
  await page.locator('[data-field=title] input').fill(title);
  await page.locator('.mw-editor-content').click();
  await page.keyboard.type(body);
  await page.locator('[data-field=tags] input').fill('bank, private');
  await page.locator('[data-action=save-note]').click();
  await page.waitForURL(/notes\/edit\?id=\d+/);
  const id = new URL(page.url().replace('/#/', '/')).searchParams.get('id')!;

  // Lock it: the dialog warns that a lost password cannot be recovered.
  await page.locator('[data-action=note-more]').click();
  await page.getByText('Set reading password').click();
  await expect.poll(() => page.locator('.mw-cn-warning').innerText()).toContain('nobody can recover');
  await page.locator('[data-field=password] input').fill(password);
  await page.locator('[data-field=password2] input').fill(password);
  await screenshot(page, 'notes-en-set-password');
  await page.locator('.adm-dialog-footer').getByText('Lock note').click();
  await page.locator('.mw-cn-edit[data-locked] .mw-editor-content').waitFor({ timeout: 20_000 });
  await screenshot(page, 'notes-en-open');

  // The server holds no plaintext: its answer for the note has no title and no content.
  const stored = await api<{ locked: boolean; title: string | null; html: string | null }>('/note/get', { token, query: { id } });
  expect(stored).toMatchObject({ locked: true, title: null, html: null });

  await page.locator('[data-action=note-more]').click();
  await page.getByText('Lock now').click();
  await page.locator('[data-state=locked]').waitFor();

  // In the list its title is hidden.
  await page.goto(`${BASE_URL}/#/pages/modules/notes/index`);
  await row(page).waitFor();
  expect(await row(page).innerText()).toContain('Locked note');
  expect(await page.locator('.mw-cn-list').innerText()).not.toContain('Bank details');
  await screenshot(page, 'notes-en-list');

  // A wrong password is refused and counted; the right one opens it.
  await row(page).click();
  await page.locator('[data-field=unlock-password] input').fill('wrong-password');
  await page.locator('[data-action=unlock]').click();
  await expect.poll(() => page.locator('.mw-cn-locked [role=alert]').innerText(), { timeout: 20_000 }).toContain('4 tries left');
  await screenshot(page, 'notes-en-locked');
  await page.locator('[data-field=unlock-password] input').fill(password);
  await page.locator('[data-action=unlock]').click();
  await page.locator('.mw-cn-edit[data-locked]').waitFor({ timeout: 20_000 });
  expect(await page.locator('[data-field=title] input').inputValue()).toBe(title);
  expect(await page.locator('.mw-editor-content').innerText()).toContain(body);

  // While it is open, search finds it on this device; the server search does not.
  await page.goto(`${BASE_URL}/#/pages/modules/notes/index?q=${encodeURIComponent('PIN 4711')}`);
  await page.locator('[data-group=open-hits]').waitFor();
  expect(await page.locator('[data-group=open-hits]').innerText()).toContain(title);
});

it('renames and deletes a folder from the folder filter; its notes stay', async () => {
  const { page } = suite;
  const folder = await api<{ id: string }>('/note/folder-create', { token, form: { name: `Trips ${stamp}` } });
  const note = await api<{ id: string }>('/note/create', { token, form: { title: 'Packing list', html: '<p>tent</p>', folder: folder.id } });
  await page.goto(`${BASE_URL}/#/pages/modules/notes/index?folder=${folder.id}`);
  await page.locator(`.mw-cn-row[data-note="${note.id}"]`).waitFor();
  await page.locator('[data-filter=folder]').click();
  await page.getByText('Rename this folder').click();
  await page.locator('.adm-dialog-body input').fill('Holidays');
  await page.locator('.adm-dialog-footer').getByText('OK').click();
  await expect.poll(() => page.locator('[data-filter=folder]').innerText()).toBe('Holidays');
  await page.locator('[data-filter=folder]').click();
  await screenshot(page, 'notes-en-folder-sheet');
  await page.getByText('Delete this folder').click();
  await page.locator('.adm-dialog-footer').getByText('Delete').click();
  await expect.poll(() => page.locator('[data-filter=folder]').innerText()).toBe('All folders');
  await page.locator(`.mw-cn-row[data-note="${note.id}"]`).waitFor();
  expect((await api<{ folder: string | null }>('/note/get', { token, query: { id: note.id } })).folder).toBeNull();
});

it('shows the notes pages in Chinese', async () => {
  const { page } = suite;
  // The account's saved language wins over the browser's; put back what it was afterwards.
  const before = (await api<{ language: string | null }>('/setting/index', { token })).language ?? 'en';
  restoreLanguage = () => api('/setting/modifylanguage', { token, query: { language: before } });
  await api('/setting/modifylanguage', { token, query: { language: 'zh' } });
  await page.evaluate(() => localStorage.setItem('language', 'zh'));
  await page.goto(`${BASE_URL}/#/pages/modules/notes/index`);
  await page.reload();
  await row(page).waitFor();
  expect(await row(page).innerText()).toContain('加密笔记');
  await screenshot(page, 'notes-zh-list');
  await row(page).click();
  await page.locator('[data-state=locked]').waitFor();
  expect(await page.locator('[data-state=locked]').innerText()).toContain('阅读密码');
  await screenshot(page, 'notes-zh-locked');
  await page.locator('[data-field=unlock-password] input').fill(password);
  await page.locator('[data-action=unlock]').click();
  await page.locator('.mw-cn-edit[data-locked] .mw-editor-content').waitFor({ timeout: 20_000 });
  await screenshot(page, 'notes-zh-open');
  await page.locator('[data-action=note-more]').click();
  await page.waitForTimeout(400);
  await screenshot(page, 'notes-zh-more');
  await page.evaluate((l) => localStorage.setItem('language', l), before);
});
