import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Folder, Mail, MailList, MboxIndex } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';

// alice must get exactly the "missing" answer for every id of bob's, on every route.
let s: TestServer;
let alice: string;
let bob: string;
let bobMail: Mail;
let bobFolder: Folder;
let aliceMailId: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
  await s.send({ from: 'n@outside.example', to: 'bob@demo.test', subject: 'bob only', html: '<img src="cid:p@x"><img src="http://127.0.0.1:9/x.png">',
    attachments: [{ filename: 'p.png', content: Buffer.from('png'), cid: 'p@x' }, { filename: 'secret.txt', content: 'top secret' }] });
  const id = (await s.get<MailList>('/h5/mail/list', { mid: '0' }, bob)).data.list[0]!.id;
  bobMail = (await s.get<Mail>('/h5/read/index', { mid: id, images: 1 }, bob)).data;
  await s.post('/h5/mailop/read', { ids: id, read: 0 }, bob);
  bobFolder = (await s.post<Folder>('/h5/mboxop/create-folder', { name: 'Bob private' }, bob)).data;
  aliceMailId = (await s.get<MailList>('/h5/mail/list', { mid: '0' }, alice)).data.list[0]!.id;
});
afterAll(async () => s?.stop());

const missing = { code: 404, error: 'Mail not found', reason: 'mail.not_found' };

describe('tenant isolation', () => {
  it('read, list and folder routes answer as for a missing id', async () => {
    expect(await s.get('/h5/read/index', { mid: bobMail.id }, alice)).toEqual(missing);
    expect(await s.get('/h5/read/index', { mid: '987654321' }, alice)).toEqual(missing);
    expect(await s.get('/h5/mail/list', { mid: bobFolder.mid }, alice)).toMatchObject({ code: 404, error: 'Folder not found' });
    expect(await s.get('/h5/mail/list', { mid: '987654' }, alice)).toMatchObject({ code: 404, error: 'Folder not found' });
    expect(await s.post('/h5/mboxop/create-folder', { name: 'inside bob', parent: bobFolder.mid }, alice)).toMatchObject({ code: 404, error: 'Folder not found' });
    expect(await s.post('/h5/mailop/read-all', { mid: bobFolder.mid }, alice)).toMatchObject({ code: 404, error: 'Folder not found' });
    expect(await s.post('/h5/mailop/move', { ids: aliceMailId, to: bobFolder.mid }, alice)).toMatchObject({ code: 404, error: 'Folder not found' });
  });

  it('every batch operation refuses a foreign id and changes nothing, even mixed with own ids', async () => {
    const ops: [string, Record<string, string | number>][] = [
      ['/h5/mailop/read', { read: 1 }], ['/h5/mailop/star', { star: 1 }], ['/h5/mailop/move', { to: '6' }],
      ['/h5/mailop/delete', {}], ['/h5/mailop/junk', {}], ['/h5/mailop/purge', {}],
    ];
    const aliceBefore = (await s.get<MboxIndex>('/h5/mbox/index', {}, alice)).data;
    for (const [route, extra] of ops) {
      expect(await s.post(route, { ids: bobMail.id, ...extra }, alice)).toEqual(missing);
      expect(await s.post(route, { ids: `${aliceMailId},${bobMail.id}`, ...extra }, alice)).toEqual(missing);
    }
    expect((await s.get<MboxIndex>('/h5/mbox/index', {}, alice)).data).toEqual(aliceBefore);
    // Listed, not opened: opening would mark it read.
    const still = (await s.get<MailList>('/h5/mail/list', { mid: '0' }, bob)).data.list.find((m) => m.id === bobMail.id);
    expect(still).toMatchObject({ mid: '0', star: false, read: false });
  });

  it('attachments, inline parts and the image proxy answer as missing', async () => {
    const secret = bobMail.attachments.find((a) => a.name === 'secret.txt')!;
    const body = async (url: string) => (await fetch(`${s.base}${url}&t=${alice}`)).json();
    expect(await body(`/h5/attach/download?id=${secret.id}`)).toEqual(missing);
    expect(await body(`/h5/read/inline?mid=${bobMail.id}&cid=p%40x`)).toEqual(missing);
    expect(await body(`/h5/read/image?mid=${bobMail.id}&url=${encodeURIComponent('http://127.0.0.1:9/x.png')}`)).toEqual(missing);
    const own = await fetch(`${s.base}/h5/attach/download?id=${secret.id}&t=${bob}`);
    expect(await own.text()).toBe('top secret');
  });
});
