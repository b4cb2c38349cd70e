import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deriveNoteKeys, lockNote, NOTE_LOCKOUT_S, NOTE_MAX_TRIES, openNote,
  type Note, type NoteFolder, type NoteFolderList, type NoteList, type NoteSealedOut,
} from '@mailwing/shared';
import { NoteService } from '../src/features/note/note.service.js';
import { startDemo, type Envelope, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;
beforeAll(async () => { ({ s, alice, bob } = await startDemo()); });
afterAll(async () => s?.stop());

// The lowest count the server accepts keeps these tests quick; note-crypto.test.ts uses the real one.
const ITER = 100_000;
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const reason = (r: Envelope<unknown>) => (r as unknown as { reason: string }).reason;
const fieldReasons = (r: Envelope<unknown>) => (r as unknown as { reasons?: Record<string, string> }).reasons ?? {};
const extra = (r: Envelope<unknown>) => r as unknown as { triesLeft?: number; retryAfter?: number };
const create = (token: string, body: Record<string, string | number>) => s.post<Note>('/h5/note/create', body, token);
const list = async (token: string, q: Record<string, string | number> = {}) => (await s.get<NoteList>('/h5/note/list', q, token)).data;
const rowOf = async (id: string) =>
  (await sql<Record<string, unknown>>`SELECT * FROM notes WHERE id = ${Number(id)}`.execute(s.rt.services.db)).rows[0]!;

async function createLocked(token: string, password: string, title: string, html: string, more: Record<string, string> = {}) {
  const l = await lockNote(password, { title, html }, ITER);
  const r = await create(token, { locked: 1, cipher: l.cipher, iv: l.iv, salt: l.salt, iterations: l.iterations, kdf: l.kdf, newProof: l.proof, ...more });
  expect(r.code).toBe(200);
  return r.data;
}

describe('cloud notes', () => {
  it('keeps rich text sanitised like mail, with small data: images and no remote ones', async () => {
    const r = await create(alice, {
      title: 'Trip', tags: 'travel, Travel ,work',
      html: `<p onclick="x()">Pack <b>light</b><script>alert(1)</script></p><img src="${PNG}" alt="map"><img src="https://track.example/p.gif">`,
    });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ title: 'Trip', locked: false, tags: ['travel', 'work'], lock: null, folder: null });
    expect(r.data.html).toContain(`src="${PNG}"`);
    expect(r.data.html).not.toMatch(/script|onclick|track\.example/);
    expect(r.data.snippet).toBe('Pack light');
    const mine = await list(alice);
    expect(mine.list.map((n) => n.title)).toEqual(['Trip']);
    expect((await list(bob)).list).toEqual([]);
  });

  it('stores a locked note as ciphertext only: the row holds neither title nor content', async () => {
    const n = await createLocked(alice, 'hunter22', 'Bank PIN 季度报告', '<p>PIN is 4711, 保密内容</p>');
    expect(n).toMatchObject({ locked: true, title: null, html: null, snippet: '' });
    expect(n.lock).toMatchObject({ iterations: ITER, kdf: 'pbkdf2-sha256', triesLeft: NOTE_MAX_TRIES, retryAfter: 0 });
    const row = await rowOf(n.id);
    expect([row.title, row.html, row.body_text]).toEqual([null, null, null]);
    const dump = JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : v));
    for (const secret of ['Bank', 'PIN', '4711', '季度', '保密', 'hunter22']) expect(dump).not.toContain(secret);
    // The note's proof is not stored either, only its hash.
    expect(row.verifier).toHaveLength(32);
    // Listed with its title hidden, and search does not reach it.
    const l = await list(alice);
    expect(l.list.find((x) => x.id === n.id)).toMatchObject({ locked: true, title: null, snippet: '' });
    expect((await list(alice, { q: '季度' })).total).toBe(0);
  });

  it('hands the ciphertext only to a caller with the password, and it opens in the client', async () => {
    const n = await createLocked(alice, 'open sesame', 'Locker', '<p>Code 1234</p>');
    const got = await s.get<Note>('/h5/note/get', { id: n.id }, alice);
    expect(JSON.stringify(got.data)).not.toMatch(/cipher/);
    const keys = await deriveNoteKeys('open sesame', got.data.lock!.salt, got.data.lock!.iterations);
    const u = await s.post<NoteSealedOut>('/h5/note/unlock', { id: n.id, proof: keys.proof }, alice);
    expect(u.code).toBe(200);
    expect(await openNote(keys.key, u.data)).toEqual({ title: 'Locker', html: '<p>Code 1234</p>' });
    // Another user's id is 404, with or without the right proof, and nothing moves.
    for (const [route, body] of [['/h5/note/unlock', { id: n.id, proof: keys.proof }], ['/h5/note/delete', { id: n.id }], ['/h5/note/update', { id: n.id, title: 'x' }], ['/h5/note/move', { ids: n.id, folder: '' }]] as const) {
      const r = await s.post(route, body, bob);
      expect([route, r.code, reason(r)]).toEqual([route, 404, 'note.not_found']);
    }
    expect((await s.get('/h5/note/get', { id: n.id }, bob)).code).toBe(404);
    expect((await s.get('/h5/note/get', { id: n.id }, alice)).code).toBe(200);
  });

  it('counts wrong passwords on the server and closes the note after five, until the window passes', async () => {
    let clock = new Date('2026-01-01T00:00:00Z');
    const notes = new NoteService({ db: s.rt.services.db, now: () => clock });
    const n = await createLocked(alice, 'right pw', 'T', '<p>x</p>');
    const right = (await deriveNoteKeys('right pw', n.lock!.salt, ITER)).proof;
    const wrong = (await deriveNoteKeys('wrong pw', n.lock!.salt, ITER)).proof;
    const userId = Number((await rowOf(n.id)).user_id);
    for (let i = 1; i < NOTE_MAX_TRIES; i += 1) {
      const r = await s.post('/h5/note/unlock', { id: n.id, proof: wrong }, alice);
      expect([r.code, reason(r), extra(r).triesLeft]).toEqual([403, 'note.wrong_password', NOTE_MAX_TRIES - i]);
    }
    // A right password resets the count.
    expect((await s.post('/h5/note/unlock', { id: n.id, proof: right }, alice)).code).toBe(200);
    for (let i = 1; i < NOTE_MAX_TRIES; i += 1) await expect(notes.unlock(userId, n.id, wrong)).rejects.toMatchObject({ reason: 'note.wrong_password' });
    await expect(notes.unlock(userId, n.id, wrong)).rejects.toMatchObject({ reason: 'note.locked_out', extra: { retryAfter: NOTE_LOCKOUT_S } });
    // Closed: even the right password waits, and an edit with a proof too.
    clock = new Date(clock.getTime() + (NOTE_LOCKOUT_S - 60) * 1000);
    await expect(notes.unlock(userId, n.id, right)).rejects.toMatchObject({ reason: 'note.locked_out', extra: { retryAfter: 60 } });
    await expect(notes.update(userId, { id: n.id, locked: false, title: 'x', html: '', proof: right, kdf: 'pbkdf2-sha256' })).rejects.toMatchObject({ reason: 'note.locked_out' });
    expect((await notes.get(userId, n.id)).lock).toMatchObject({ triesLeft: 0, retryAfter: 60 });
    clock = new Date(clock.getTime() + 61_000);
    expect((await notes.unlock(userId, n.id, right)).cipher).toBe((await rowOf(n.id)).cipher);
  });

  it('edits a locked note only with its proof, and removing the lock brings back plain text', async () => {
    const n = await createLocked(alice, 'pw-edit', 'Old', '<p>old</p>');
    const { proof } = await deriveNoteKeys('pw-edit', n.lock!.salt, ITER);
    // Filing a locked note (with its proof) leaves it locked and its ciphertext as it was.
    const f = (await s.post<NoteFolder>('/h5/note/folder-create', { name: 'Vault' }, alice)).data;
    const before = await rowOf(n.id);
    const filed = await s.post<Note>('/h5/note/update', { id: n.id, folder: f.id, tags: 'secret', proof }, alice);
    expect(filed.data).toMatchObject({ locked: true, title: null, folder: f.id, tags: ['secret'] });
    expect((await rowOf(n.id)).cipher).toBe(before.cipher);
    await s.post('/h5/note/folder-delete', { id: f.id }, alice);
    const noProof = await s.post('/h5/note/update', { id: n.id, title: 'New', html: '<p>new</p>' }, alice);
    expect([noProof.code, reason(noProof)]).toEqual([422, 'note.password_required']);
    // Sending plaintext beside a lock is refused, so a client bug cannot leak it.
    const l = await lockNote('pw-edit', { title: 'A', html: 'b' }, ITER);
    const leak = await s.post('/h5/note/update', { id: n.id, proof, locked: 1, title: 'A', cipher: l.cipher, iv: l.iv, salt: l.salt, iterations: ITER, newProof: l.proof }, alice);
    expect([leak.code, reason(leak)]).toEqual([422, 'note.plaintext_with_lock']);
    const plain = await s.post<Note>('/h5/note/update', { id: n.id, proof, locked: 0, title: 'New', html: '<p>new text</p>' }, alice);
    expect(plain.data).toMatchObject({ locked: false, title: 'New', html: '<p>new text</p>', lock: null });
    const row = await rowOf(n.id);
    expect([row.cipher, row.salt, row.verifier]).toEqual([null, null, null]);
    expect((await list(alice, { q: 'new text' })).list.map((x) => x.id)).toEqual([n.id]);
  });

  it('searches plain notes by title and text, CJK substrings included, with paging', async () => {
    await create(alice, { title: '会议纪要', html: '<p>讨论第三季度报告的进度</p>' });
    expect((await list(alice, { q: '季度报告' })).list.map((x) => x.title)).toEqual(['会议纪要']);
    expect((await list(alice, { q: '纪要' })).total).toBe(1);
    expect((await list(alice, { q: '100%_' })).total).toBe(0);
    const all = await list(alice);
    const p1 = await list(alice, { page: 1, size: 2 });
    const p2 = await list(alice, { page: 2, size: 2 });
    expect(p1.total).toBe(all.total);
    expect([...p1.list, ...p2.list].map((x) => x.id)).toEqual(all.list.slice(0, 4).map((x) => x.id));
  });

  it('files notes in folders and by tag; a folder delete keeps its notes', async () => {
    const f = (await s.post<NoteFolder>('/h5/note/folder-create', { name: 'Work' }, alice)).data;
    const dup = await s.post('/h5/note/folder-create', { name: 'work' }, alice);
    expect([dup.code, reason(dup)]).toEqual([422, 'note.folder_exists']);
    const n = (await create(alice, { title: 'In folder', html: '<p>a</p>', folder: f.id, tags: 'q3' })).data;
    expect(n.folder).toBe(f.id);
    expect((await list(alice, { folder: f.id })).list.map((x) => x.id)).toEqual([n.id]);
    expect((await list(alice, { tag: 'q3' })).list.map((x) => x.id)).toEqual([n.id]);
    const folders = (await s.get<NoteFolderList>('/h5/note/folders', {}, alice)).data;
    expect(folders.list).toEqual([{ id: f.id, name: 'Work', count: 1 }]);
    expect(folders.tags).toContainEqual({ name: 'q3', count: 1 });
    expect((await s.post('/h5/note/move', { ids: n.id, folder: '' }, alice)).data).toEqual({ moved: 1 });
    expect((await list(alice, { folder: 'none' })).list.map((x) => x.id)).toContain(n.id);
    await s.post('/h5/note/move', { ids: n.id, folder: f.id }, alice);
    expect((await s.post('/h5/note/folder-delete', { id: f.id }, alice)).code).toBe(200);
    expect((await s.get<Note>('/h5/note/get', { id: n.id }, alice)).data.folder).toBeNull();
    // Bob cannot see, rename or fill Alice's folders.
    const g = (await s.post<NoteFolder>('/h5/note/folder-create', { name: 'Private' }, alice)).data;
    expect((await s.post('/h5/note/folder-rename', { id: g.id, name: 'Mine' }, bob)).code).toBe(404);
    const foreign = await create(bob, { title: 'x', html: '', folder: g.id });
    expect([foreign.code, reason(foreign), fieldReasons(foreign).folder]).toEqual([422, 'note.folder_unknown', 'note.folder_unknown']);
    // Both ids foreign: the folder is checked first, and the note stays where it was.
    const moveForeign = await s.post('/h5/note/move', { ids: n.id, folder: g.id }, bob);
    expect([moveForeign.code, reason(moveForeign)]).toEqual([422, 'note.folder_unknown']);
    const bobsOwn = (await create(bob, { title: 'b', html: '' })).data;
    expect((await s.post('/h5/note/move', { ids: `${bobsOwn.id},${n.id}`, folder: '' }, bob)).code).toBe(404);
    expect((await s.get<Note>('/h5/note/get', { id: n.id }, alice)).data.folder).toBeNull();
  });

  it('refuses bad input with reason codes and changes nothing', async () => {
    const before = (await list(alice)).total;
    const cases: [Record<string, string | number>, number, string][] = [
      [{ title: 'a\u0000b', html: '' }, 422, 'input.nul_byte'],
      [{ title: 'x'.repeat(201), html: '' }, 422, 'input.too_long'],
      [{ title: 't', tags: Array.from({ length: 11 }, (_, i) => `t${i}`).join(',') }, 422, 'input.too_long'],
      [{ title: 't', folder: '99999999' }, 422, 'note.folder_unknown'],
      [{ locked: 1, cipher: 'AAAA', iv: 'AAAAAAAAAAAAAAAA', salt: 'AAAAAAAAAAAAAAAAAAAAAA==', iterations: 1000, newProof: 'A'.repeat(43) + '=' }, 422, 'input.too_short'],
      [{ locked: 1, cipher: 'AAAA', iv: 'AAAAAAAAAAAAAAAA', salt: 'AAAAAAAAAAAAAAAAAAAAAA==', iterations: ITER }, 422, 'note.bad_lock'],
      [{ locked: 1, cipher: 'not base64!', iv: 'AAAAAAAAAAAAAAAA', salt: 'AAAAAAAAAAAAAAAAAAAAAA==', iterations: ITER, newProof: 'A'.repeat(43) + '=' }, 422, 'input.format'],
    ];
    for (const [body, code, why] of cases) {
      const r = await create(alice, body);
      expect([r.code, Object.values(fieldReasons(r))[0] ?? reason(r)]).toEqual([code, why]);
    }
    const big = await s.postJson('/h5/note/create', { title: 'big', html: 'x'.repeat(1_500_001) }, alice);
    expect([big.code, fieldReasons(big).html]).toEqual([422, 'input.too_long']);
    expect((await s.get('/h5/note/get', { id: '1'.repeat(16) }, alice)).code).toBe(422);
    expect((await s.post('/h5/note/unlock', { id: '1', proof: 'short' }, alice)).code).toBe(422);
    expect((await list(alice)).total).toBe(before);
  });

  it('documents its routes in the OpenAPI document', async () => {
    const doc = await (await fetch(`${s.base}/h5/openapi.json`)).json() as { paths: Record<string, unknown> };
    for (const p of ['list', 'get', 'create', 'update', 'unlock', 'delete', 'move', 'folders', 'folder-create', 'folder-rename', 'folder-delete']) {
      expect(doc.paths).toHaveProperty([`/h5/note/${p}`]);
    }
  });
});
