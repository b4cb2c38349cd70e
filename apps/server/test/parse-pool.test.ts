import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../src/blob/file-blob-store.js';
import { ParsePool } from '../src/features/message/parse-pool.js';

const pools: ParsePool[] = [];
afterAll(async () => { for (const p of pools) await p.close(); });

const mail = (subject: string, body = 'hello') => Buffer.from(`From: a@x.test\r\nSubject: ${subject}\r\nDate: Sun, 22 Nov 2026 04:00:42 +0000\r\n\r\n${body}\r\n`);

describe('ParsePool', () => {
  it('parses in a worker thread, keeping dates and text', async () => {
    const pool = new ParsePool(1);
    pools.push(pool);
    const c = await pool.parse(mail('in a worker'), 'a@x.test');
    expect(c.subject).toBe('in a worker');
    expect(c.date).toEqual(new Date('2026-11-22T04:00:42Z'));
    expect(c.parseError).toBeNull();
  });

  it('cuts off a job over its time limit, and stores it as unreadable with the original attached', async () => {
    const pool = new ParsePool(1, 1);
    pools.push(pool);
    const big = mail('slow', 'x'.repeat(5_000_000));
    const c = await pool.parse(big, 'a@x.test');
    expect(c.parseError).toBe('parsing took too long');
    expect(c.attachments).toEqual([{ index: -1, name: 'original.eml', size: big.length, contentType: 'message/rfc822', cid: null, inline: false }]);
  });

  it('parses a staged blob that the worker reads from the store itself, and so does the main thread with no workers', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-parse-'));
    try {
      const store = new FileBlobStore(dir);
      await store.init();
      const raw = mail('located', 'words in a long body\r\n'.repeat(50_000));
      const staged = await store.stage(raw);
      const pool = new ParsePool(1);
      pools.push(pool);
      for (const p of [pool, new ParsePool(0)]) {
        const c = await p.parseLocated(store.locate(staged), staged.size, 'a@x.test');
        expect(c.subject).toBe('located');
        expect(c.text.length).toBeGreaterThan(900_000);
      }
      await store.release(staged);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('parses on the main thread with no workers', async () => {
    const c = await new ParsePool(0).parse(mail('inline'), 'a@x.test');
    expect(c.subject).toBe('inline');
  });
});
