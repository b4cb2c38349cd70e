import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Folder, Mail, MailList, MboxIndex } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => s?.stop());

const folders = async (token: string) => (await s.get<MboxIndex>('/h5/mbox/index', {}, token)).data;
const inbox = async (token: string) => (await folders(token)).system.find((f) => f.mid === '0')!;
const list = async (token: string, mid = '0', page = 1, size = 20) => (await s.get<MailList>('/h5/mail/list', { mid, page, size }, token)).data;

describe('folders and the demo mail', () => {
  it('lists the seven system folders with unread counts and totals', async () => {
    const idx = await folders(alice);
    expect(idx.system.map((f) => [f.mid, f.name])).toEqual([
      ['0', 'Inbox'], ['1', 'Sent'], ['2', 'Drafts'], ['3', 'Spam'], ['4', 'Deleted'], ['5', 'GroupMail'], ['6', 'MailHistory'],
    ]);
    const box = await inbox(alice);
    expect(box.total).toBe(4);
    expect(box.count).toBe(3);
    expect(idx.system.find((f) => f.mid === '1')!.total).toBe(1);
  });

  it('seeds Chinese and English subjects, an attachment, a starred and an urgent mail', async () => {
    const l = (await list(alice)).list;
    expect(l.map((m) => m.subject)).toEqual(expect.arrayContaining(['第三季度报告', 'Welcome to Mailwing']));
    expect(l.some((m) => m.hasAttach)).toBe(true);
    expect(l.some((m) => m.star)).toBe(true);
    expect(l.find((m) => m.subject.startsWith('Urgent'))?.urgent).toBe(true);
  });

  it('pages newest first', async () => {
    for (let i = 0; i < 5; i++) await s.send({ from: 'p@outside.example', to: 'bob@demo.test', subject: `page test ${i}`, text: 'x' });
    const p1 = await list(bob, '0', 1, 2);
    const p2 = await list(bob, '0', 2, 2);
    expect(p1.list.map((m) => m.subject)).toEqual(['page test 4', 'page test 3']);
    expect(p2.list.map((m) => m.subject)).toEqual(['page test 2', 'page test 1']);
    expect(p1.total).toBe(p2.total);
    expect(p1.list.every((m, i, a) => i === 0 || a[i - 1]!.date >= m.date)).toBe(true);
  });

  it('creates folders three levels deep and refuses the fourth, empty names, bad characters and twins', async () => {
    const l1 = await s.post<Folder>('/h5/mboxop/create-folder', { name: 'Projects' }, alice);
    expect(l1.code).toBe(200);
    const l2 = await s.post<Folder>('/h5/mboxop/create-folder', { name: '二级', parent: l1.data.mid }, alice);
    const l3 = await s.post<Folder>('/h5/mboxop/create-folder', { name: 'Level 3', parent: l2.data.mid }, alice);
    expect(l3.data.parent).toBe(l2.data.mid);
    const l4 = await s.post('/h5/mboxop/create-folder', { name: 'Level 4', parent: l3.data.mid }, alice);
    expect(l4).toMatchObject({ code: 422, error: { parent: 'Only 3 levels of folders may be created' } });
    expect((await s.post('/h5/mboxop/create-folder', { name: '   ' }, alice)).code).toBe(422);
    expect((await s.post('/h5/mboxop/create-folder', { name: 'a/b' }, alice)).code).toBe(422);
    expect((await s.post('/h5/mboxop/create-folder', { name: 'projects' }, alice)).error).toEqual({ name: 'A folder with this name already exists here' });
    expect((await s.post('/h5/mboxop/create-folder', { name: 'Sub', parent: '0' }, alice)).code).toBe(422);
    expect((await folders(alice)).custom.map((f) => f.name)).toEqual(['Projects', '二级', 'Level 3']);
  });
});

describe('reading and operations', () => {
  it('opening a mail marks it read and lowers the unread count; mark unread raises it', async () => {
    const before = (await inbox(alice)).count;
    const unread = (await list(alice)).list.find((m) => !m.read)!;
    const mail = await s.get<Mail>('/h5/read/index', { mid: unread.id }, alice);
    expect(mail.data.read).toBe(true);
    expect(mail.data.status).toBe('read');
    expect((await inbox(alice)).count).toBe(before - 1);
    expect((await s.post('/h5/mailop/read', { ids: unread.id, read: 0 }, alice)).data).toEqual({ changed: 1 });
    expect((await inbox(alice)).count).toBe(before);
  });

  it('gives previous and next ids within the folder', async () => {
    const l = (await list(alice)).list;
    const mid = await s.get<Mail>('/h5/read/index', { mid: l[1]!.id }, alice);
    expect(mid.data.prevId).toBe(l[0]!.id);
    expect(mid.data.nextId).toBe(l[2]!.id);
  });

  it('stars, moves, deletes, reports junk and marks a folder read', async () => {
    const [a, b, c] = (await list(alice)).list;
    expect((await s.post('/h5/mailop/star', { ids: `${a!.id},${b!.id}`, star: 1 }, alice)).data).toEqual({ changed: 2 });
    expect((await list(alice)).list.filter((m) => [a!.id, b!.id].includes(m.id)).every((m) => m.star)).toBe(true);
    const custom = (await folders(alice)).custom[0]!;
    await s.post('/h5/mailop/move', { ids: a!.id, to: custom.mid }, alice);
    expect((await list(alice, custom.mid)).list.map((m) => m.id)).toEqual([a!.id]);
    await s.post('/h5/mailop/delete', { ids: b!.id }, alice);
    await s.post('/h5/mailop/junk', { ids: c!.id }, alice);
    expect((await list(alice, '4')).list.map((m) => m.id)).toContain(b!.id);
    expect((await list(alice, '3')).list.map((m) => m.id)).toContain(c!.id);
    await s.post('/h5/mailop/read-all', { mid: '0' }, alice);
    expect((await inbox(alice)).count).toBe(0);
    const idx = await folders(alice);
    const sum = [...idx.system, ...idx.custom].reduce((n, f) => n + f.total, 0);
    const rows = await s.rt.services.db.selectFrom('messages').innerJoin('users', 'users.id', 'messages.user_id').where('users.email', '=', 'alice@demo.test').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(sum).toBe(Number(rows.n));
  });

  it('permanently deletes only from Deleted or Spam, and frees the blob after its last reference', async () => {
    await s.send({ from: 'p@outside.example', to: ['alice@demo.test', 'bob@demo.test'], subject: 'shared blob', text: 'x' });
    const a = (await list(alice)).list[0]!;
    const b = (await list(bob)).list[0]!;
    expect(a.subject).toBe('shared blob');
    const { blob_hash: hash } = await s.rt.services.db.selectFrom('messages').select('blob_hash').where('id', '=', Number(a.id)).executeTakeFirstOrThrow();
    expect((await s.post('/h5/mailop/purge', { ids: a.id }, alice)).code).toBe(422);
    await s.post('/h5/mailop/delete', { ids: a.id }, alice);
    expect((await s.post('/h5/mailop/purge', { ids: a.id }, alice)).data).toEqual({ changed: 1 });
    expect((await s.get('/h5/read/index', { mid: a.id }, alice)).code).toBe(404);
    expect(await s.rt.services.blobs.has(hash)).toBe(true);
    expect((await s.get<Mail>('/h5/read/index', { mid: b.id }, bob)).data.subject).toBe('shared blob');
    await s.post('/h5/mailop/junk', { ids: b.id }, bob);
    await s.post('/h5/mailop/purge', { ids: b.id }, bob);
    expect(await s.rt.services.blobs.has(hash)).toBe(false);
    expect(await s.rt.services.db.selectFrom('blobs').select('hash').where('hash', '=', hash).executeTakeFirst()).toBeUndefined();
  });

  it('validates operation input', async () => {
    expect((await s.post('/h5/mailop/read', { ids: 'abc', read: 1 }, alice)).code).toBe(422);
    expect((await s.post('/h5/mailop/read', { ids: '1' }, alice)).code).toBe(422);
    expect((await s.get('/h5/mail/list', { mid: 'inbox' }, alice)).code).toBe(422);
    expect((await s.get('/h5/mail/list', { mid: '0', size: 1000 }, alice)).code).toBe(422);
    expect((await s.get('/h5/mail/list', { mid: '99999' }, alice)).code).toBe(404);
    expect((await s.get('/h5/read/index', { mid: '99999999' }, alice)).code).toBe(404);
  });
});

describe('attachments and images', () => {
  it('downloads an attachment with its type and a UTF-8 file name', async () => {
    const m = (await list(alice, '0', 1, 50)).list.find((x) => x.subject === '第三季度报告')
      ?? (await list(alice, '4', 1, 50)).list.find((x) => x.subject === '第三季度报告')
      ?? (await list(alice, '3', 1, 50)).list.find((x) => x.subject === '第三季度报告');
    const mail = (await s.get<Mail>('/h5/read/index', { mid: m!.id }, alice)).data;
    const att = mail.attachments[0]!;
    expect(att.name).toBe('第三季度数据.csv');
    const res = await fetch(`${s.base}/h5/attach/download?id=${att.id}&t=${alice}`);
    // A download is bytes to save, whatever the mail called them (user-content.ts).
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('第三季度数据.csv')}`);
    expect(await res.text()).toContain('9月,151');
  });

  it('serves cid: images from the message and proxies remote images only once allowed', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwAEAQH/0eNDmQAAAABJRU5ErkJggg==', 'base64');
    let hits = 0;
    const remote = http.createServer((_req, res) => { hits += 1; res.writeHead(200, { 'content-type': 'image/png' }).end(png); });
    await new Promise<void>((r) => remote.listen(0, '127.0.0.1', () => r()));
    const port = (remote.address() as { port: number }).port;
    try {
      const url = `http://127.0.0.1:${port}/pixel.png`;
      await s.send({ from: 'n@outside.example', to: 'bob@demo.test', subject: 'images', html: `<p><img src="cid:pic@x"><img src="${url}"></p>`,
        attachments: [{ filename: 'pic.png', content: png, cid: 'pic@x' }] });
      const id = (await list(bob)).list[0]!.id;
      const held = (await s.get<Mail>('/h5/read/index', { mid: id }, bob)).data;
      expect(held.remoteImages).toBe(true);
      expect(held.imagesShown).toBe(false);
      expect(held.html).not.toContain(url.replace(/\//g, '%2F'));
      const inline = held.html.match(/src="([^"]*\/h5\/read\/inline[^"]*)"/)![1]!.replace(/&amp;/g, '&');
      const inlineRes = await fetch(`${s.base}${inline}`);
      expect(inlineRes.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await inlineRes.arrayBuffer()).equals(png)).toBe(true);
      const proxied = `${s.base}/h5/read/image?mid=${id}&url=${encodeURIComponent(url)}&t=${bob}`;
      expect((await (await fetch(proxied)).json() as { code: number }).code).toBe(404);
      expect(hits).toBe(0);
      const shown = (await s.get<Mail>('/h5/read/index', { mid: id, images: 1 }, bob)).data;
      expect(shown.imagesShown).toBe(true);
      expect(shown.html).toContain(`/h5/read/image?mid=${id}&amp;url=${encodeURIComponent(url)}`);
      const img = await fetch(proxied);
      expect(img.headers.get('content-type')).toBe('image/png');
      expect(hits).toBe(1);
      const other = `${s.base}/h5/read/image?mid=${id}&url=${encodeURIComponent(`http://127.0.0.1:${port}/other.png`)}&t=${bob}`;
      expect((await (await fetch(other)).json() as { code: number }).code).toBe(404);
    } finally {
      remote.close();
    }
  });
});
