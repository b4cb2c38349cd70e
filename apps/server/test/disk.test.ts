import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISK_MAX_FILE_BYTES, type DiskBinList, type DiskList, type DiskNode, type DiskUsage, type Share, type ShareInfo } from '@mailwing/shared';
import { ShareService } from '../src/features/disk/share.service.js';
import { startDemo, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;
beforeAll(async () => { ({ s, alice, bob } = await startDemo()); });
afterAll(async () => s?.stop());

const b64 = (v: string) => Buffer.from(v).toString('base64');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** tus creation (POST) with Upload-Length and metadata, as tus-js-client sends it. */
async function create(token: string, length: number, meta: Record<string, string>) {
  const res = await fetch(`${s.base}/h5/disk/tus`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': Object.entries(meta).map(([k, v]) => `${k} ${b64(v)}`).join(',') },
  });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

async function patch(token: string, location: string, offset: number, data: Buffer) {
  return fetch(`${s.base}${location}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(data),
  });
}

/** A whole small upload; returns the new file. */
async function put(token: string, name: string, data: Buffer, parent?: string): Promise<DiskNode> {
  const c = await create(token, data.length, { filename: name, sha256: sha(data), ...(parent ? { parent } : {}) });
  expect(c.status, c.body).toBe(201);
  const res = await patch(token, c.location!, 0, data);
  expect(res.status).toBe(204);
  const id = res.headers.get('x-disk-file-id')!;
  const list = await listAll(token, parent);
  return list.list.find((n) => n.id === id)!;
}

const listAll = async (token: string, parent?: string) => (await s.get<DiskList>('/h5/disk/list', { ...(parent ? { parent } : {}), size: 100 }, token)).data;
const usage = async (token: string) => (await s.get<DiskUsage>('/h5/disk/usage', {}, token)).data;

describe('disk files and folders', () => {
  it('creates folders, uploads into them, lists with paging and a path, and downloads the bytes', async () => {
    const docs = (await s.post<DiskNode>('/h5/disk/create-folder', { name: 'Docs' }, alice)).data;
    expect(docs).toMatchObject({ folder: true, name: 'Docs', parentId: null });
    const sub = (await s.post<DiskNode>('/h5/disk/create-folder', { name: 'Sub', parent: docs.id }, alice)).data;
    const data = Buffer.from('hello disk\n'.repeat(100));
    const file = await put(alice, 'notes.txt', data, docs.id);
    expect(file).toMatchObject({ name: 'notes.txt', size: data.length, folder: false, parentId: docs.id });
    for (let i = 0; i < 3; i++) await put(alice, `f${i}.bin`, Buffer.from([i]), docs.id);

    const page1 = (await s.get<DiskList>('/h5/disk/list', { parent: docs.id, page: 1, size: 2 }, alice)).data;
    expect(page1.total).toBe(5);
    expect(page1.list.map((n) => n.name)).toEqual(['Sub', 'f0.bin']);
    const inSub = (await s.get<DiskList>('/h5/disk/list', { parent: sub.id }, alice)).data;
    expect(inSub.path.map((p) => p.name)).toEqual(['Docs', 'Sub']);

    const dl = await fetch(`${s.base}/h5/disk/download?id=${file.id}`, { headers: { authorization: `Bearer ${alice}` } });
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-security-policy')).toContain('sandbox');
    expect(dl.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await dl.arrayBuffer()).equals(data)).toBe(true);
    const part = await fetch(`${s.base}/h5/disk/download?id=${file.id}`, { headers: { authorization: `Bearer ${alice}`, range: 'bytes=6-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 6-9/${data.length}`);
    expect(await part.text()).toBe('disk');
  });

  it('refuses the spec\'s forbidden characters, empty and duplicate names, with reason codes, and changes nothing', async () => {
    for (const ch of ['/', '?', ':', '*', '"', '<', '>', '|']) {
      const r = await s.post('/h5/disk/create-folder', { name: `a${ch}b` }, alice);
      expect(r).toMatchObject({ code: 422, reason: 'disk.name_forbidden', error: { name: 'File names may not contain / ? : * " < > |' } });
    }
    expect(await s.post('/h5/disk/create-folder', { name: '  ' }, alice)).toMatchObject({ code: 422, reason: 'disk.name_empty' });
    await s.post('/h5/disk/create-folder', { name: 'Twice' }, alice);
    expect(await s.post('/h5/disk/create-folder', { name: 'twice' }, alice)).toMatchObject({ code: 422, reason: 'disk.name_taken' });
    const bad = await create(alice, 10, { filename: 'x|y.txt' });
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.body)).toMatchObject({ reason: 'disk.name_forbidden' });
    expect((await listAll(alice)).list.filter((n) => n.name.includes('|'))).toEqual([]);
  });

  it('renames, moves (not into itself), bins, restores and purges', async () => {
    const a = (await s.post<DiskNode>('/h5/disk/create-folder', { name: 'A' }, alice)).data;
    const b = (await s.post<DiskNode>('/h5/disk/create-folder', { name: 'B', parent: a.id }, alice)).data;
    const f = await put(alice, 'x.txt', Buffer.from('x'));
    expect((await s.post<DiskNode>('/h5/disk/rename', { id: f.id, name: 'y.txt' }, alice)).data.name).toBe('y.txt');
    expect(await s.post('/h5/disk/rename', { id: f.id, name: 'y:z' }, alice)).toMatchObject({ code: 422, reason: 'disk.name_forbidden' });
    expect(await s.post('/h5/disk/move', { ids: a.id, parent: b.id }, alice)).toMatchObject({ code: 422, reason: 'disk.move_into_self' });
    expect((await s.post('/h5/disk/move', { ids: f.id, parent: b.id }, alice)).code).toBe(200);
    expect((await listAll(alice, b.id)).list.map((n) => n.name)).toEqual(['y.txt']);

    const before = await usage(alice);
    expect((await s.post('/h5/disk/delete', { ids: a.id }, alice)).code).toBe(200);
    expect((await listAll(alice)).list.some((n) => n.id === a.id)).toBe(false);
    // Inside a binned folder nothing is reachable.
    expect((await s.get('/h5/disk/list', { parent: b.id }, alice)).code).toBe(404);
    expect((await fetch(`${s.base}/h5/disk/download?id=${f.id}`, { headers: { authorization: `Bearer ${alice}` } }).then((r) => r.json()))).toMatchObject({ code: 404 });
    const bin = (await s.get<DiskBinList>('/h5/disk/bin', {}, alice)).data;
    expect(bin.list.map((n) => n.id)).toEqual([a.id]);
    expect((await s.post('/h5/disk/restore', { ids: a.id }, alice)).code).toBe(200);
    expect((await listAll(alice, b.id)).list.map((n) => n.name)).toEqual(['y.txt']);

    await s.post('/h5/disk/delete', { ids: a.id }, alice);
    expect((await usage(alice)).diskBytes).toBe(before.diskBytes);
    expect((await s.post('/h5/disk/purge', { ids: a.id }, alice)).code).toBe(200);
    expect((await usage(alice)).diskBytes).toBe(before.diskBytes - 1);
    expect((await s.get<DiskBinList>('/h5/disk/bin', {}, alice)).data.total).toBe(0);
    // Purging a live item is refused: only the bin can be purged.
    const live = await put(alice, 'keep.txt', Buffer.from('k'));
    expect((await s.post('/h5/disk/purge', { ids: live.id }, alice)).code).toBe(404);
  });

  it('answers 404 for another user\'s ids everywhere and changes nothing', async () => {
    const f = await put(alice, 'private.txt', Buffer.from('secret'));
    const folder = (await s.post<DiskNode>('/h5/disk/create-folder', { name: 'Mine' }, alice)).data;
    expect((await s.get('/h5/disk/list', { parent: folder.id }, bob)).code).toBe(404);
    expect((await s.post('/h5/disk/rename', { id: f.id, name: 'p.txt' }, bob)).code).toBe(404);
    expect((await s.post('/h5/disk/move', { ids: f.id }, bob)).code).toBe(404);
    expect((await s.post('/h5/disk/delete', { ids: f.id }, bob)).code).toBe(404);
    expect((await s.post('/h5/disk/create-folder', { name: 'In', parent: folder.id }, bob)).code).toBe(404);
    expect((await s.post('/h5/disk/share/create', { id: f.id }, bob)).code).toBe(404);
    const dl = await fetch(`${s.base}/h5/disk/download?id=${f.id}`, { headers: { authorization: `Bearer ${bob}` } });
    expect(await dl.json()).toMatchObject({ code: 404 });
    const c = await create(alice, 4, { filename: 'half.txt' });
    const head = await fetch(`${s.base}${c.location!}`, { method: 'HEAD', headers: { authorization: `Bearer ${bob}`, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(404);
    expect((await patch(bob, c.location!, 0, Buffer.from('evil'))).status).toBe(404);
    expect((await listAll(alice)).list.find((n) => n.id === f.id)?.name).toBe('private.txt');
    // Alice can still finish her upload: bob's PATCH wrote nothing.
    expect((await patch(alice, c.location!, 0, Buffer.from('mine'))).status).toBe(204);
    expect((await s.get('/h5/disk/list', {})).code).toBe(401);
  });
});

describe('disk uploads', () => {
  it('refuses 2 GB + 1 byte at creation with the spec\'s message, and takes exactly 2 GB up to the quota check', async () => {
    const r = await create(alice, DISK_MAX_FILE_BYTES + 1, { filename: 'big.iso' });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ code: 422, reason: 'disk.too_large', error: { file: 'File too large' } });
    // 2 GB itself is within the size rule (alice's 5 GB quota has room): the reservation is made, then cancelled.
    const ok = await create(alice, DISK_MAX_FILE_BYTES, { filename: 'big.iso' });
    expect(ok.status).toBe(201);
    expect((await usage(alice)).reservedBytes).toBe(DISK_MAX_FILE_BYTES);
    const del = await fetch(`${s.base}${ok.location!}`, { method: 'DELETE', headers: { authorization: `Bearer ${alice}`, 'tus-resumable': '1.0.0' } });
    expect(del.status).toBe(204);
    expect((await usage(alice)).reservedBytes).toBe(0);
  });

  it('reserves the quota from Upload-Length atomically: of two concurrent uploads that each fit alone, one is refused', async () => {
    // Bob's quota: what his mail uses plus 1 GB (issue 17 will let an admin set it; here the column is set directly).
    const u = await usage(bob);
    await s.rt.services.db.updateTable('users').set({ quota_bytes: u.usedBytes + 1024 ** 3 }).where('email', '=', 'bob@demo.test').execute();
    const each = 600 * 1024 ** 2;
    const results = await Promise.all([create(bob, each, { filename: 'one.bin' }), create(bob, each, { filename: 'two.bin' })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    const refused = results.find((r) => r.status === 422)!;
    expect(JSON.parse(refused.body)).toMatchObject({ reason: 'disk.quota_exceeded', error: { file: 'Not enough storage space' } });
    expect((await usage(bob)).reservedBytes).toBe(each);
  });

  it('refuses a file whose sha256 differs from the declared one, and keeps nothing of it', async () => {
    const data = Buffer.from('tampered');
    const c = await create(alice, data.length, { filename: 'bad.txt', sha256: sha(Buffer.from('original')) });
    const res = await patch(alice, c.location!, 0, data);
    expect(res.status).toBe(460);
    expect(JSON.parse(await res.text())).toMatchObject({ reason: 'disk.checksum_mismatch' });
    expect((await listAll(alice)).list.some((n) => n.name === 'bad.txt')).toBe(false);
    expect((await usage(alice)).reservedBytes).toBe(0);
    // Its bytes did not stay behind in the blob store.
    expect(await s.rt.services.blobs.has(sha(data))).toBe(false);
  });

  it('sweeps unfinished uploads after 24 h by the clock it is given, freeing their reservation', async () => {
    const c = await create(alice, 1000, { filename: 'stale.bin' });
    await patch(alice, c.location!, 0, Buffer.alloc(10));
    const svc = s.rt.services.diskUploads;
    expect(await svc.sweep(new Date(Date.now() + 23 * 3600_000))).toBe(0);
    expect((await usage(alice)).reservedBytes).toBe(1000);
    // This one and bob's unfinished one from the quota test.
    expect(await svc.sweep(new Date(Date.now() + 24 * 3600_000 + 60_000))).toBe(2);
    expect((await usage(alice)).reservedBytes).toBe(0);
    expect((await usage(bob)).reservedBytes).toBe(0);
    const head = await fetch(`${s.base}${c.location!}`, { method: 'HEAD', headers: { authorization: `Bearer ${alice}`, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(404);
  });
});

describe('share links', () => {
  it('downloads through a link without a session, with a password and limited tries, until it expires', async () => {
    const data = Buffer.from('shared bytes');
    const f = await put(alice, 'report.pdf.txt', data);
    const open = (await s.post<Share>('/h5/disk/share/create', { id: f.id, days: 7 }, alice)).data;
    expect(open).toMatchObject({ name: 'report.pdf.txt', hasPassword: false });
    expect((await s.get<ShareInfo>('/h5/disk/share/info', { s: open.token })).data).toMatchObject({ name: 'report.pdf.txt', size: data.length, needsPassword: false });
    const dl = await fetch(`${s.base}/h5/disk/share/download?s=${open.token}`);
    expect(dl.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await dl.arrayBuffer()).equals(data)).toBe(true);

    const locked = (await s.post<Share>('/h5/disk/share/create', { id: f.id, days: 1, password: 'pw-1234' }, alice)).data;
    const stored = await s.rt.services.db.selectFrom('disk_shares' as never).select(['password_hash' as never]).where('id' as never, '=', Number(locked.id) as never).executeTakeFirstOrThrow() as { password_hash: string };
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect((await s.get<ShareInfo>('/h5/disk/share/info', { s: locked.token })).data.needsPassword).toBe(true);
    expect(await fetch(`${s.base}/h5/disk/share/download?s=${locked.token}`).then((r) => r.json())).toMatchObject({ code: 422, reason: 'share.bad_password' });
    const good = await fetch(`${s.base}/h5/disk/share/download`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `s=${locked.token}&password=pw-1234` });
    expect(Buffer.from(await good.arrayBuffer()).equals(data)).toBe(true);

    // Expiry, by the clock the service is given.
    const later = new ShareService(s.rt.services.db, s.rt.services.disk, () => new Date(Date.now() + 2 * 86_400_000));
    await expect(later.info(locked.token)).rejects.toMatchObject({ reason: 'share.expired' });
    expect((await later.info(open.token)).name).toBe('report.pdf.txt');

    // Five wrong passwords lock the link, even for the right one afterwards.
    for (let i = 0; i < 4; i++) expect((await s.post('/h5/disk/share/download', { s: locked.token, password: 'nope' })).code).toBe(422);
    expect((await s.post('/h5/disk/share/download', { s: locked.token, password: 'pw-1234' })).code).toBe(429);

    // A binned file's links stop working; a revoked link too.
    expect((await s.post('/h5/disk/share/revoke', { id: open.id }, bob)).code).toBe(404);
    expect((await s.post('/h5/disk/share/revoke', { id: open.id }, alice)).code).toBe(200);
    expect((await s.get('/h5/disk/share/info', { s: open.token })).code).toBe(404);
  });
});
