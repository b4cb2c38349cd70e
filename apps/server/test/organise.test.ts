import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Folder, Mail, MailList, MboxIndex, SearchResult, Tag, TagList } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

const list = async (token: string, q: Record<string, string | number>) => (await s.get<MailList>('/h5/mail/list', { size: 100, ...q }, token)).data;
const search = async (token: string, q: Record<string, string | number>) => {
  const r = await s.get<SearchResult>('/h5/search/mail', { size: 50, ...q }, token);
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data;
};
const deliver = (subject: string, text: string, extra: Record<string, unknown> = {}) =>
  s.send({ from: 'Carol Chen <carol.chen@partner.example>', to: 'alice@demo.test', subject, text, ...extra });

describe('custom folders', () => {
  it('renames with the spec rules and deletes into Deleted, sub-folders included', async () => {
    const a = (await s.post<Folder>('/h5/mboxop/create-folder', { name: 'Projects' }, alice)).data;
    const b = (await s.post<Folder>('/h5/mboxop/create-folder', { name: 'Alpha', parent: a.mid }, alice)).data;
    const c = (await s.post<Folder>('/h5/mboxop/create-folder', { name: 'Specs', parent: b.mid }, alice)).data;
    expect((await s.post('/h5/mboxop/create-folder', { name: 'Too deep', parent: c.mid }, alice))).toMatchObject({ code: 422, error: { parent: 'Only 3 levels of folders may be created' } });
    await s.post('/h5/mboxop/create-folder', { name: 'Beta', parent: a.mid }, alice);
    expect(await s.post('/h5/mboxop/rename-folder', { mid: b.mid, name: 'beta' }, alice)).toMatchObject({ code: 422, error: { name: 'A folder with this name already exists here' } });
    expect(await s.post('/h5/mboxop/rename-folder', { mid: b.mid, name: 'a/b' }, alice)).toMatchObject({ code: 422 });
    expect(await s.post('/h5/mboxop/rename-folder', { mid: '0', name: 'Mine' }, alice)).toMatchObject({ code: 422, error: { mid: 'System folders cannot be renamed or deleted' } });
    expect((await s.post('/h5/mboxop/rename-folder', { mid: b.mid, name: 'Alpha 2' }, bob)).code).toBe(404);
    expect((await s.post<Folder>('/h5/mboxop/rename-folder', { mid: b.mid, name: 'Alpha 2' }, alice)).data.name).toBe('Alpha 2');

    await deliver('File me', 'into specs');
    const mail = (await list(alice, { mid: '0' })).list.find((m) => m.subject === 'File me')!;
    expect((await s.post('/h5/mailop/move', { ids: mail.id, to: c.mid }, alice)).code).toBe(200);
    const deletedBefore = (await list(alice, { mid: '4' })).total;
    const del = await s.post<{ folders: number; moved: number }>('/h5/mboxop/delete-folder', { mid: b.mid }, alice);
    expect(del.data).toEqual({ folders: 2, moved: 1 });
    expect((await list(alice, { mid: '4' })).total).toBe(deletedBefore + 1);
    const mbox = (await s.get<MboxIndex>('/h5/mbox/index', {}, alice)).data;
    expect(mbox.custom.map((f) => f.name).sort()).toEqual(['Beta', 'Projects']);
  });
});

describe('tags, notes and quick filters', () => {
  it('creates, applies, filters by, recolours and deletes tags; refuses foreign ids whole', async () => {
    const tag = (await s.post<Tag>('/h5/tag/create', { name: 'Finance', color: '#E5484D' }, alice)).data;
    expect(await s.post('/h5/tag/create', { name: 'finance' }, alice)).toMatchObject({ code: 422, error: { name: 'A tag with this name already exists' } });
    expect(await s.post('/h5/tag/create', { name: 'Bad', color: 'red' }, alice)).toMatchObject({ code: 422 });
    const inbox = (await list(alice, { mid: '0' })).list;
    const two = inbox.slice(0, 2).map((m) => m.id);
    expect((await s.post('/h5/mailop/tag', { ids: two.join(','), tag: tag.id }, alice)).data).toEqual({ changed: 2 });
    const bobMail = (await list(bob, { mid: '0' })).list[0]!;
    expect((await s.post('/h5/mailop/tag', { ids: `${two[0]},${bobMail.id}`, tag: tag.id, on: 0 }, alice)).code).toBe(404);
    expect((await s.post('/h5/mailop/tag', { ids: bobMail.id, tag: tag.id }, bob)).code).toBe(404);
    const tagged = await list(alice, { mid: '0', tag: tag.id });
    expect(tagged.total).toBe(2);
    expect(tagged.list.every((m) => m.tags.includes('Finance'))).toBe(true);
    await s.post('/h5/tag/update', { id: tag.id, name: 'Money', color: '#30A46C' }, alice);
    expect((await s.get<TagList>('/h5/tag/list', {}, alice)).data.list).toEqual([{ id: tag.id, name: 'Money', color: '#30A46C', count: 2 }]);
    await s.post('/h5/tag/delete', { id: tag.id }, alice);
    expect((await list(alice, { mid: '0' })).list.find((m) => m.id === two[0])!.tags).toEqual([]);
  });

  it('adds, edits and removes a note', async () => {
    const m = (await list(alice, { mid: '0' })).list[0]!;
    await s.post('/h5/mailop/note', { mid: m.id, note: 'Call Carol back' }, alice);
    expect((await s.get<Mail>('/h5/read/index', { mid: m.id }, alice)).data.note).toBe('Call Carol back');
    expect((await s.post('/h5/mailop/note', { mid: m.id, note: 'x' }, bob)).code).toBe(404);
    await s.post('/h5/mailop/note', { mid: m.id, note: '' }, alice);
    expect((await s.get<Mail>('/h5/read/index', { mid: m.id }, alice)).data.note).toBe('');
  });

  it('filters a folder by unread, starred, urgent and attachments with matching totals', async () => {
    const all = (await list(alice, { mid: '0' })).list;
    for (const [filter, pick] of [['unread', (m: typeof all[0]) => !m.read], ['starred', (m: typeof all[0]) => m.star], ['urgent', (m: typeof all[0]) => m.urgent], ['attach', (m: typeof all[0]) => m.hasAttach]] as const) {
      const r = await list(alice, { mid: '0', filter });
      expect(r.list.map((m) => m.id), filter).toEqual(all.filter(pick).map((m) => m.id));
      expect(r.total, filter).toBe(all.filter(pick).length);
    }
  });

  it('archives into MailHistory, by hand and after N days', async () => {
    await deliver('Old news', 'archive me');
    const m = (await list(alice, { mid: '0' })).list.find((x) => x.subject === 'Old news')!;
    await s.post('/h5/mailop/archive', { ids: m.id }, alice);
    expect((await list(alice, { mid: '6' })).list.some((x) => x.id === m.id)).toBe(true);

    await deliver('Ancient', 'from long ago');
    const old = (await list(alice, { mid: '0' })).list.find((x) => x.subject === 'Ancient')!;
    await s.rt.services.db.updateTable('messages').set({ received_at: new Date(Date.now() - 40 * 86400_000) }).where('id', '=', Number(old.id)).execute();
    expect(await s.post('/h5/setting/auto-archive', { days: 30 }, alice)).toMatchObject({ code: 200, data: { days: 30 } });
    expect(await s.rt.services.messages.autoArchiveDue()).toBeGreaterThanOrEqual(1);
    expect((await list(alice, { mid: '6' })).list.some((x) => x.id === old.id)).toBe(true);
    expect((await list(alice, { mid: '0' })).list.every((x) => Date.now() / 1000 - x.date < 30 * 86400)).toBe(true);
    await s.post('/h5/setting/auto-archive', { days: 0 }, alice);
    expect((await s.get<{ days: number }>('/h5/setting/auto-archive', {}, alice)).data.days).toBe(0);
  });
});

describe('search', () => {
  beforeAll(async () => {
    await deliver('第三季度报告', '请查收本季度的财务数据。');
    await deliver('Budget review for Q3', 'The budget meeting moved to Friday. 预算会议改到周五。');
    await deliver('Photos', 'see attached', { attachments: [{ filename: '团建照片-final.zip', content: 'zip' }] });
    await s.send({ from: 'dave@vendor.example', to: 'alice@demo.test', subject: 'Invoice 2026-11', text: 'Payment due' });
  });

  const subjects = async (q: Record<string, string | number>) => (await search(alice, q)).list.map((m) => m.subject);

  it('finds Chinese substrings: 季度, 报告, 季度报告', async () => {
    for (const q of ['季度', '报告', '季度报告', '第三季度']) expect(await subjects({ q }), q).toContain('第三季度报告');
    expect(await subjects({ q: '季报' })).not.toContain('第三季度报告');
  });

  it('finds English words, mixed text, body text, addresses and attachment names', async () => {
    expect(await subjects({ q: 'budget' })).toContain('Budget review for Q3');
    expect(await subjects({ q: 'BUDGET friday' })).toEqual(['Budget review for Q3']);
    expect(await subjects({ q: '预算会议' })).toEqual(['Budget review for Q3']);
    expect(await subjects({ q: 'q3 预算' })).toEqual(['Budget review for Q3']);
    expect(await subjects({ q: '财务数据' })).toEqual(['第三季度报告']);
    expect(await subjects({ q: 'dave@vendor.example' })).toEqual(['Invoice 2026-11']);
    expect(await subjects({ q: 'vendor.example' })).toEqual(['Invoice 2026-11']);
    expect(await subjects({ q: 'carol' })).toEqual(expect.arrayContaining(['第三季度报告', 'Photos']));
    expect(await subjects({ q: '团建照片' })).toEqual(['Photos']);
    expect(await subjects({ q: 'invo' })).toEqual(['Invoice 2026-11']);
    expect(await subjects({ q: 'nothing-like-this' })).toEqual([]);
    const hit = (await search(alice, { q: '财务' })).list[0]!;
    expect(hit.snippet).toContain('财务数据');
  });

  it('applies the folder, date, attachment and unread filters, and never shows another mailbox', async () => {
    expect(await subjects({ q: '团建', attach: 1 })).toEqual(['Photos']);
    expect(await subjects({ q: 'budget', attach: 1 })).toEqual([]);
    expect(await subjects({ q: 'budget', mid: '6' })).toEqual([]);
    expect(await subjects({ q: 'budget', mid: '0' })).toEqual(['Budget review for Q3']);
    const now = Math.floor(Date.now() / 1000);
    expect(await subjects({ q: 'budget', since: now - 3600, until: now + 60 })).toEqual(['Budget review for Q3']);
    expect(await subjects({ q: 'budget', until: now - 3600 })).toEqual([]);
    const hit = (await search(alice, { q: 'budget' })).list[0]!;
    expect(await subjects({ q: 'budget', unread: 1 })).toEqual(['Budget review for Q3']);
    await s.get('/h5/read/index', { mid: hit.id }, alice);
    expect(await subjects({ q: 'budget', unread: 1 })).toEqual([]);
    expect((await search(bob, { q: 'budget' })).list).toEqual([]);
    expect((await s.get('/h5/search/mail', { q: 'budget', mid: '9999' }, alice)).code).toBe(404);
    expect((await s.get('/h5/search/mail', { q: '' }, alice)).code).toBe(422);
  });

  it('keeps up with moves and deletes', async () => {
    const hit = (await search(alice, { q: '团建' })).list[0]!;
    await s.post('/h5/mailop/delete', { ids: hit.id }, alice);
    expect((await search(alice, { q: '团建' })).list[0]!.mid).toBe('4');
    await s.post('/h5/mailop/purge', { ids: hit.id }, alice);
    expect(await subjects({ q: '团建' })).toEqual([]);
  });
});
