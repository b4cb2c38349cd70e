import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobService } from '../src/blob/blob.service.js';
import { FileBlobStore } from '../src/blob/file-blob-store.js';
import { connect, migrate, type DbHandle } from '../src/db/connect.js';

let dir: string;
let handle: DbHandle;
let store: FileBlobStore;
let blobs: BlobService;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-blob-'));
  // The server suite's PostgreSQL pass gives each file its own server database; this file only needs the embedded one.
  handle = await connect({ dataDir: dir, memory: true });
  await migrate(handle.db);
  store = new FileBlobStore(path.join(dir, 'blobs'));
  await store.init();
  blobs = new BlobService(handle.db, store);
});
afterAll(async () => {
  await handle?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('FileBlobStore', () => {
  it('stores by sha256, reads back, and leaves no temp files after release', async () => {
    const staged = await store.stage(Buffer.from('hello blob'));
    expect(staged.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(store.pathOf(staged.hash)).toContain(path.join(staged.hash.slice(0, 2), staged.hash.slice(2, 4), staged.hash));
    await store.release(staged);
    expect((await store.get(staged.hash)).toString()).toBe('hello blob');
    expect(await fs.readdir(path.join(dir, 'blobs', 'tmp'))).toEqual([]);
  });

  it('the same content twice is one file', async () => {
    const a = await store.stage(Buffer.from('same'));
    const b = await store.stage(Buffer.from('same'));
    expect(a.hash).toBe(b.hash);
    await store.release(a);
    await store.release(b);
    expect(await store.has(a.hash)).toBe(true);
  });

  it('frees a blob only when its last reference goes', async () => {
    const staged = await store.stage(Buffer.from('counted'));
    await handle.db.transaction().execute((trx) => blobs.reference(trx, [{ staged: staged, n: 2 }]));
    await store.release(staged);
    await handle.db.transaction().execute((trx) => blobs.unreference(trx, new Map([[staged.hash, 1]])));
    expect(await blobs.collect()).toBe(0);
    expect(await store.has(staged.hash)).toBe(true);
    await handle.db.transaction().execute((trx) => blobs.unreference(trx, new Map([[staged.hash, 1]])));
    expect(await blobs.collect()).toBe(1);
    expect(await store.has(staged.hash)).toBe(false);
  });

  it('a writer that references content the collector just removed restores the file', async () => {
    const data = Buffer.from('raced');
    const first = await store.stage(data);
    await handle.db.transaction().execute((trx) => blobs.reference(trx, [{ staged: first, n: 1 }]));
    await store.release(first);
    await handle.db.transaction().execute((trx) => blobs.unreference(trx, new Map([[first.hash, 1]])));
    // A new upload of the same bytes is staged, then the collector runs before it commits.
    const second = await store.stage(data);
    expect(await blobs.collect()).toBe(1);
    expect(await store.has(second.hash)).toBe(false);
    await handle.db.transaction().execute((trx) => blobs.reference(trx, [{ staged: second, n: 1 }]));
    await store.release(second);
    expect((await store.get(second.hash)).toString()).toBe('raced');
  });

  it('refuses a malformed hash instead of touching other paths', () => {
    expect(() => store.pathOf('../../etc/passwd')).toThrow('bad blob hash');
  });
});

describe('streaming puts (issue 13)', () => {
  const tmpFiles = () => fs.readdir(path.join(dir, 'blobs', 'tmp'));

  it('a streamed blob is hashed on the way and stored as `stage` would store the same bytes', async () => {
    const { createHash, randomBytes } = await import('node:crypto');
    const pieces = Array.from({ length: 40 }, (_, i) => randomBytes(7_000 + i * 997));
    const writer = await store.stageStream();
    for (const p of pieces) await writer.write(p);
    const staged = await writer.finish();
    const whole = Buffer.concat(pieces);
    expect(staged.hash).toBe(createHash('sha256').update(whole).digest('hex'));
    expect(staged.size).toBe(whole.length);
    await store.release(staged);
    expect((await store.get(staged.hash)).equals(whole)).toBe(true);
    expect(await tmpFiles()).toEqual([]);
  });

  it('an aborted writer and a discarded spool leave no file', async () => {
    const writer = await store.stageStream();
    await writer.write(Buffer.alloc(300_000, 1));
    const spool = await store.spool();
    await spool.write(Buffer.alloc(300_000, 2));
    expect((await tmpFiles()).length).toBe(2);
    await writer.abort();
    await spool.discard();
    expect(await tmpFiles()).toEqual([]);
  });

  it('a spool reads back whole or in part, as often as asked, and joins a head into one blob', async () => {
    const spool = await store.spool();
    const body = Buffer.from('Subject: spooled\r\n\r\n' + 'line of text\r\n'.repeat(50_000));
    for (let at = 0; at < body.length; at += 10_000) await spool.write(body.subarray(at, at + 10_000));
    await spool.end();
    const read = async (n?: number) => Buffer.concat(await spool.read(n).toArray() as Buffer[]);
    expect((await read()).equals(body)).toBe(true);
    expect((await read(9)).toString()).toBe('Subject: ');
    const staged = await blobs.stageJoined(Buffer.from('X-Head: 1\r\n'), spool);
    await spool.discard();
    await store.release(staged);
    expect((await store.get(staged.hash)).equals(Buffer.concat([Buffer.from('X-Head: 1\r\n'), body]))).toBe(true);
    expect(await tmpFiles()).toEqual([]);
  });
});

describe('content addressing', () => {
  it('names a blob by the sha256 of its bytes', async () => {
    const { createHash } = await import('node:crypto');
    const data = Buffer.from('address me');
    const staged = await store.stage(data);
    await store.release(staged);
    expect(staged.hash).toBe(createHash('sha256').update(data).digest('hex'));
  });
});
