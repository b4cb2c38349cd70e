import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_MAX_BYTES, SIGNATURE_MAX_COUNT, type ResolvedSignature, type SignatureList, type SignatureSaved } from '@mailwing/shared';
import { startDemo, type Envelope, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;
beforeAll(async () => { ({ s, alice, bob } = await startDemo()); });
afterAll(async () => s?.stop());

const create = (token: string, name: string, html: string) => s.post<SignatureSaved>('/h5/signature/create', { name, html }, token);
const list = async (token: string) => (await s.get<SignatureList>('/h5/signature/list', {}, token)).data;
const resolved = async (token: string, mode: string) => (await s.get<ResolvedSignature>('/h5/signature/default', { mode }, token)).data.signature?.name ?? null;
const reason = (r: Envelope<unknown>) => (r as unknown as { reason: string }).reason;
const fieldReasons = (r: Envelope<unknown>) => (r as unknown as { reasons?: Record<string, string> }).reasons;
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('signatures', () => {
  it('keeps several per mailbox, with rich text, each mailbox its own', async () => {
    const work = await create(alice, 'Work', '<p><b>Alice Wang</b><br>Demo Co</p>');
    expect(work).toMatchObject({ code: 200, data: { name: 'Work', html: '<p><b>Alice Wang</b><br />Demo Co</p>', removedImages: 0 } });
    expect((await create(alice, 'Short', '<p>— A</p>')).code).toBe(200);
    expect((await list(alice)).list.map((x) => x.name)).toEqual(['Work', 'Short']);
    expect((await list(alice)).defaults).toEqual({ newMail: null, reply: null, replySameAsNew: true });
    expect((await list(bob)).list).toEqual([]);
  });

  it('removes remote-image beacons, scripts and handlers; keeps small data: images and links', async () => {
    const r = await create(alice, 'Beacon', [
      '<p onclick="x()">Hi<img src="https://track.example/p.gif?u=alice" width="1" height="1">',
      '<img src="//track.example/q.gif"><img src="cid:logo@x"><img src="/h5/write/file?id=1">',
      `<img src="${PNG}" alt="logo"><script>alert(1)</script>`,
      '<span style="background:url(https://track.example/bg.png)">bg</span><a href="https://demo.test">site</a></p>',
    ].join(''));
    expect(r.code).toBe(200);
    const html = r.data.html;
    expect(html).not.toMatch(/track\.example|cid:|write\/file|script|onclick|data-mw-src/);
    expect(html).toContain(`<img alt="logo" src="${PNG}" />`);
    expect(html).toContain('href="https://demo.test"');
    expect(r.data.removedImages).toBe(4);
    // An update goes through the same sanitiser.
    const u = await s.post<SignatureSaved>('/h5/signature/update', { id: r.data.id, html: '<p>x<img src="http://track.example/a.png"></p>' }, alice);
    expect(u.data).toMatchObject({ html: '<p>x</p>', removedImages: 1 });
  });

  it('sets defaults for new mail and replies, with "same as new" falling back', async () => {
    const byName = (l: SignatureList, n: string) => l.list.find((x) => x.name === n)!.id;
    const l = await list(alice);
    const work = byName(l, 'Work');
    const short = byName(l, 'Short');
    expect(await resolved(alice, 'new')).toBeNull();
    let d = (await s.post<SignatureList>('/h5/signature/defaults', { newMail: work }, alice)).data.defaults;
    expect(d).toEqual({ newMail: work, reply: null, replySameAsNew: true });
    expect([await resolved(alice, 'new'), await resolved(alice, 'reply'), await resolved(alice, 'forward')]).toEqual(['Work', 'Work', 'Work']);
    d = (await s.post<SignatureList>('/h5/signature/defaults', { reply: short }, alice)).data.defaults;
    expect(d).toEqual({ newMail: work, reply: short, replySameAsNew: false });
    expect([await resolved(alice, 'new'), await resolved(alice, 'reply'), await resolved(alice, 'forward')]).toEqual(['Work', 'Short', 'Short']);
    // "None" for replies is not "same as new".
    d = (await s.post<SignatureList>('/h5/signature/defaults', { reply: '' }, alice)).data.defaults;
    expect(d).toEqual({ newMail: work, reply: null, replySameAsNew: false });
    expect(await resolved(alice, 'reply')).toBeNull();
    d = (await s.post<SignatureList>('/h5/signature/defaults', { reply: 'same' }, alice)).data.defaults;
    expect(d).toEqual({ newMail: work, reply: null, replySameAsNew: true });
    expect(await resolved(alice, 'reply')).toBe('Work');
  });

  it('clears a default when its signature is deleted, and the fallback follows', async () => {
    const l = await list(alice);
    const work = l.list.find((x) => x.name === 'Work')!.id;
    const short = l.list.find((x) => x.name === 'Short')!.id;
    await s.post('/h5/signature/defaults', { newMail: work, reply: short }, alice);
    // Deleting the reply default leaves the new-mail one alone.
    let after = (await s.post<SignatureList>('/h5/signature/delete', { id: short }, alice)).data;
    expect(after.defaults).toEqual({ newMail: work, reply: null, replySameAsNew: false });
    expect(await resolved(alice, 'reply')).toBeNull();
    await s.post('/h5/signature/defaults', { reply: 'same' }, alice);
    after = (await s.post<SignatureList>('/h5/signature/delete', { id: work }, alice)).data;
    expect(after.defaults).toEqual({ newMail: null, reply: null, replySameAsNew: true });
    expect([await resolved(alice, 'new'), await resolved(alice, 'reply')]).toEqual([null, null]);
  });

  it("answers 404 for another mailbox's signature, and changes nothing", async () => {
    const mine = (await create(bob, 'Bob', '<p>Bob</p>')).data.id;
    for (const [route, body] of [
      ['/h5/signature/update', { id: mine, name: 'Stolen' }],
      ['/h5/signature/delete', { id: mine }],
      ['/h5/signature/defaults', { newMail: mine }],
      ['/h5/signature/defaults', { reply: mine }],
    ] as const) {
      const r = await s.post(route, body, alice);
      expect(r.code, route).toBe(404);
      expect(reason(r)).toBe('signature.not_found');
    }
    expect((await list(bob)).list).toMatchObject([{ id: mine, name: 'Bob' }]);
    expect((await list(alice)).defaults.newMail).toBeNull();
    expect((await s.post('/h5/signature/update', { id: '999999999', name: 'x' }, alice)).code).toBe(404);
  });

  it('refuses bad input with reason codes: NUL, oversize, duplicate names, bad ids, no session', async () => {
    const before = (await list(alice)).list.length;
    const nul = await create(alice, 'Nul', '<p>a\u0000b</p>');
    expect([nul.code, fieldReasons(nul)]).toEqual([422, { html: 'input.nul_byte' }]);
    const big = await create(alice, 'Big', `<p>${'x'.repeat(SIGNATURE_MAX_BYTES)}</p>`);
    expect([big.code, reason(big)]).toEqual([422, 'signature.too_large']);
    // A huge data: image counts too: the limit is on what is stored.
    const bigImage = await create(alice, 'Logo', `<img src="data:image/png;base64,${'A'.repeat(SIGNATURE_MAX_BYTES)}">`);
    expect(reason(bigImage)).toBe('signature.too_large');
    const huge = await create(alice, 'Huge', 'x'.repeat(300_000));
    expect([huge.code, fieldReasons(huge)]).toEqual([422, { html: 'input.too_long' }]);
    expect((await create(alice, '', '<p>x</p>')).code).toBe(422);
    expect((await create(alice, 'x'.repeat(41), '<p>x</p>')).code).toBe(422);
    await create(alice, 'Dup', '<p>1</p>');
    const dup = await create(alice, 'DUP', '<p>2</p>');
    expect([dup.code, reason(dup)]).toEqual([422, 'signature.name_taken']);
    expect((await s.post('/h5/signature/delete', { id: 'abc' }, alice)).code).toBe(422);
    expect((await s.post('/h5/signature/defaults', { reply: 'other' }, alice)).code).toBe(422);
    expect((await s.get('/h5/signature/default', { mode: 'sideways' }, alice)).code).toBe(422);
    expect((await s.get('/h5/signature/list')).code).toBe(401);
    expect((await list(alice)).list.length).toBe(before + 1);
  });

  it('lists its routes in the OpenAPI document', async () => {
    const doc = await (await fetch(`${s.base}/h5/openapi.json`)).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/h5/signature/list', '/h5/signature/default', '/h5/signature/create', '/h5/signature/update', '/h5/signature/delete', '/h5/signature/defaults',
      '/h5/template/list', '/h5/template/create', '/h5/template/category-create', '/h5/admin/templates/list', '/h5/admin/templates/create',
    ]));
  });

  it(`stops at ${SIGNATURE_MAX_COUNT} per mailbox, even when created at once`, async () => {
    const token = await s.login('admin@demo.test');
    const results = await Promise.all(Array.from({ length: SIGNATURE_MAX_COUNT + 5 }, (_, i) => create(token, `S${i}`, `<p>${i}</p>`)));
    expect(results.filter((r) => r.code === 200)).toHaveLength(SIGNATURE_MAX_COUNT);
    expect(results.filter((r) => r.code === 422).map(reason)).toEqual(Array(5).fill('signature.limit'));
    expect((await list(token)).list).toHaveLength(SIGNATURE_MAX_COUNT);
  });
});
