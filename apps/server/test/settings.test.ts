import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, type Account, type Folder, type Settings } from '@mailwing/shared';
import { startDemo, type Envelope, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;
beforeAll(async () => { ({ s, alice, bob } = await startDemo()); });
afterAll(async () => s?.stop());

const settings = async (token: string) => (await s.get<Settings>('/h5/setting/index', {}, token)).data;

// A 1×1 PNG, and the signatures of the other accepted formats (the server looks at the bytes only).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20)]);

async function upload(token: string, data: Buffer, name = 'me.png', type = 'image/png'): Promise<Envelope<Settings>> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${s.base}/h5/setting/avatar`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return (await res.json()) as Envelope<Settings>;
}

const refcount = async (hash: string) =>
  (await s.rt.services.db.selectFrom('blobs').select('refcount').where('hash', '=', hash).executeTakeFirst())?.refcount ?? 0;
const avatarHash = async (email: string) =>
  (await s.rt.services.db.selectFrom('users').select('avatar_hash').where('email', '=', email).executeTakeFirstOrThrow()).avatar_hash;

describe('settings', () => {
  it('shows the profile and the default notification settings before anything is saved', async () => {
    const r = await settings(alice);
    expect(r).toMatchObject({
      email: 'alice@demo.test', nickname: 'Alice Wang', avatar: null, company: 'Demo Co', role: 'user', secverify: false, wechatBound: false,
      notify: { newMail: true, quietEnabled: false, quietStart: '22:00', quietEnd: '07:00', timeZone: 'UTC', folders: ['0', '5'] },
    });
    expect((await s.get('/h5/setting/index')).code).toBe(401);
  });

  it('saves any subset of the notification fields and keeps the rest', async () => {
    const folder = (await s.post<Folder>('/h5/mboxop/create-folder', { name: 'Projects' }, alice)).data;
    let r = await s.post<Settings>('/h5/setting/app-setting', { quietEnabled: '1', quietStart: '23:30', timeZone: 'Asia/Shanghai' }, alice);
    expect(r.code).toBe(200);
    expect(r.data.notify).toEqual({ newMail: true, quietEnabled: true, quietStart: '23:30', quietEnd: '07:00', timeZone: 'Asia/Shanghai', folders: ['0', '5'] });
    // Spam is never a notifying folder, so it is not kept.
    r = await s.post<Settings>('/h5/setting/app-setting', { newMail: '0', folders: `0,3,${folder.mid}` }, alice);
    expect(r.data.notify).toEqual({ newMail: false, quietEnabled: true, quietStart: '23:30', quietEnd: '07:00', timeZone: 'Asia/Shanghai', folders: ['0', folder.mid] });
    expect((await settings(alice)).notify).toEqual(r.data.notify);
    // Bob's own settings are untouched.
    expect((await settings(bob)).notify.quietEnabled).toBe(false);
  });

  it('refuses bad input with 422 naming the field, and changes nothing', async () => {
    const before = (await settings(alice)).notify;
    const bad = async (body: Record<string, string>, field: string) => {
      const r = await s.post('/h5/setting/app-setting', body, alice);
      expect(r.code).toBe(422);
      // A list's bad entry is named by its index (folders.0).
      expect(Object.keys(r.error as object).some((k) => k === field || k.startsWith(`${field}.`))).toBe(true);
    };
    await bad({ quietStart: '24:00' }, 'quietStart');
    await bad({ quietEnd: '7:00' }, 'quietEnd');
    await bad({ timeZone: 'Mars/Olympus_Mons' }, 'timeZone');
    await bad({ newMail: 'maybe' }, 'newMail');
    await bad({ folders: 'inbox' }, 'folders');
    await bad({ quietEnabled: '0', folders: '0,999999' }, 'folders');
    // A folder of another mailbox is as unknown as a missing one.
    const bobs = (await s.post<Folder>('/h5/mboxop/create-folder', { name: 'Bob only' }, bob)).data;
    await bad({ folders: `0,${bobs.mid}` }, 'folders');
    expect((await settings(alice)).notify).toEqual(before);
  });

  it('saves the language (spec §7: a GET) and refuses other languages', async () => {
    const r = await s.get<Settings>('/h5/setting/modifylanguage', { language: 'en' }, alice);
    expect(r.code).toBe(200);
    expect(r.data.language).toBe('en');
    expect((await s.get<Account>('/h5/login/check', {}, alice)).data.language).toBe('en');
    const fr = await s.get('/h5/setting/modifylanguage', { language: 'fr' }, alice);
    expect(fr).toMatchObject({ code: 422, error: { language: 'must be zh or en' } });
    expect((await settings(alice)).language).toBe('en');
  });

  it('saves the nickname and refuses an empty one', async () => {
    const r = await s.post<Settings>('/h5/setting/nickname', { nickname: '  Alice W.  ' }, alice);
    expect(r.data.nickname).toBe('Alice W.');
    expect((await s.get<Account>('/h5/login/check', {}, alice)).data.name).toBe('Alice W.');
    expect(await s.post('/h5/setting/nickname', { nickname: '   ' }, alice)).toMatchObject({ code: 422, error: { nickname: 'Nickname is required' } });
    expect(await s.post('/h5/setting/nickname', {}, alice)).toMatchObject({ code: 422, error: { nickname: 'Nickname is required' } });
    expect((await settings(alice)).nickname).toBe('Alice W.');
  });
});

describe('OpenAPI', () => {
  it('documents the settings, push, mailbox and WeChat routes', async () => {
    const doc = await (await fetch(`${s.base}/h5/openapi.json`)).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/h5/setting/index', '/h5/setting/app-setting', '/h5/setting/modifylanguage', '/h5/setting/nickname', '/h5/setting/avatar', '/h5/setting/avatar-image',
      '/h5/setting/push-key', '/h5/setting/bind-push-id', '/h5/setting/unbind-push-id',
      '/h5/login/bind', '/h5/login/select', '/h5/login/app-email-select', '/h5/login/unbind',
      '/h5/login/wx', '/h5/login/app', '/h5/login/wxcode', '/h5/login/app-bind',
    ]));
  });
});

describe('avatar', () => {
  it('stores an image and serves it to anyone by address, with its type and cache headers', async () => {
    const r = await upload(alice, PNG);
    expect(r.code).toBe(200);
    const hash = (await avatarHash('alice@demo.test'))!;
    expect(r.data.avatar).toBe(`/h5/setting/avatar-image?email=alice%40demo.test&v=${hash.slice(0, 12)}`);
    expect(await refcount(hash)).toBe(1);

    // Public: no token, as an <img> would ask.
    const img = await fetch(`${s.base}${r.data.avatar}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect(img.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    const unversioned = await fetch(`${s.base}/h5/setting/avatar-image?email=ALICE@demo.test`);
    expect(unversioned.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('answers 404 in the envelope for a mailbox without an avatar or no mailbox at all', async () => {
    for (const email of ['bob@demo.test', 'ghost@demo.test']) {
      const res = await fetch(`${s.base}/h5/setting/avatar-image?email=${email}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ code: 404 });
    }
  });

  it('replacing the avatar moves the blob reference to the new image', async () => {
    const old = (await avatarHash('alice@demo.test'))!;
    const r = await upload(alice, GIF, 'me.gif', 'image/gif');
    expect(r.code).toBe(200);
    const now = (await avatarHash('alice@demo.test'))!;
    expect(now).not.toBe(old);
    expect(await refcount(old)).toBe(0);
    expect(await refcount(now)).toBe(1);
    const img = await fetch(`${s.base}${r.data.avatar}`);
    expect(img.headers.get('content-type')).toBe('image/gif');
    // The same image for bob shares the blob.
    expect((await upload(bob, GIF, 'x.gif', 'image/gif')).code).toBe(200);
    expect(await refcount(now)).toBe(2);
    const collected = await s.rt.services.blobs.collect();
    expect(collected).toBeGreaterThanOrEqual(1);
    expect(await s.rt.services.blobs.has(old)).toBe(false);
    expect(await s.rt.services.blobs.has(now)).toBe(true);
  });

  it('refuses what is not a PNG, JPEG, GIF or WebP image, whatever its name and type say', async () => {
    const before = await avatarHash('alice@demo.test');
    for (const data of [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), Buffer.from('hello'), Buffer.alloc(0)]) {
      const r = await upload(alice, data, 'me.png', 'image/png');
      expect(r.code).toBe(422);
      expect((r.error as { file: string }).file).toMatch(/^avatar upload failed/);
    }
    const notMultipart = await s.post('/h5/setting/avatar', { file: 'x' }, alice);
    expect(notMultipart.code).toBe(422);
    expect(await avatarHash('alice@demo.test')).toBe(before);
  });

  it('refuses an image over the size limit', async () => {
    const before = await avatarHash('alice@demo.test');
    const big = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES)]);
    const r = await upload(alice, big);
    expect(r.code).toBe(422);
    expect((r.error as { file: string }).file).toBe('avatar upload failed: must be at most 2 MB');
    // Exactly at the limit is fine.
    expect((await upload(alice, Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES - PNG.length)]))).code).toBe(200);
    expect(await avatarHash('alice@demo.test')).not.toBe(before);
  });
});
