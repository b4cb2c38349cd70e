import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, MailList } from '@mailwing/shared';
import { ROW_BLOB_MAX } from '../src/blob/blob.service.js';
import { startDemo, startTestServer, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => s?.stop());

async function newest(token: string, mid = '0') {
  const list = await s.get<MailList>('/h5/mail/list', { mid, page: 1, size: 5 }, token);
  return list.data.list[0]!;
}

describe('SMTP receiving', () => {
  it('stores a mail for a hosted address and shows it through list and read', async () => {
    const info = await s.send({ from: 'partner@outside.example', to: 'alice@demo.test', subject: 'Hello over SMTP', text: 'Body text' });
    expect(info.response).toMatch(/^250 /);
    const first = await newest(alice);
    expect(first.subject).toBe('Hello over SMTP');
    expect(first.read).toBe(false);
    const read = await s.get<Mail>('/h5/read/index', { mid: first.id }, alice);
    expect(read.code).toBe(200);
    expect(read.data.text.trim()).toBe('Body text');
    expect(read.data.from.address).toBe('partner@outside.example');
  });

  it('adds Return-Path and Received to the stored raw message', async () => {
    await s.send({ from: 'tracer@outside.example', to: 'bob@demo.test', subject: 'trace me', text: 'x' });
    const first = await newest(bob);
    const blobs = await s.rt.services.db.selectFrom('messages').select('blob_hash').where('id', '=', Number(first.id)).executeTakeFirstOrThrow();
    const raw = (await s.rt.services.blobs.get(blobs.blob_hash)).toString();
    // Between them, the sender authentication results (inbound-auth.test.ts).
    expect(raw).toMatch(/^Return-Path: <tracer@outside\.example>\r\n(?:(?:Received-SPF|Authentication-Results):[^\r\n]*\r\n(?:[ \t][^\r\n]*\r\n)*)+Received: from /);
    expect(raw).toMatch(/by mx\.test\.local \(Mailwing\) with ESMTP id \S+\r\n\tfor <bob@demo\.test>;/);
  });

  it('refuses unknown mailboxes and other domains with 550 and a clear text', async () => {
    await expect(s.send({ from: 'x@outside.example', to: 'nobody@demo.test', subject: 's', text: 't' })).rejects.toThrow(/550 5\.1\.1 <nobody@demo\.test>: no such mailbox here/);
    await expect(s.send({ from: 'x@outside.example', to: 'someone@elsewhere.example', subject: 's', text: 't' })).rejects.toThrow(/550 5\.7\.1 .*relaying denied/);
  });

  it('stores one blob for several local recipients', async () => {
    const before = await s.rt.services.db.selectFrom('blobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await s.send({ from: 'team@outside.example', to: ['alice@demo.test', 'bob@demo.test', 'admin@demo.test'], subject: 'For all three', text: 'shared' });
    const after = await s.rt.services.db.selectFrom('blobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(before.n)).toBe(1);
    const [a, b] = [await newest(alice), await newest(bob)];
    expect(a.subject).toBe('For all three');
    expect(b.subject).toBe('For all three');
    const rows = await s.rt.services.db.selectFrom('messages').select(['blob_hash']).where('id', 'in', [Number(a.id), Number(b.id)]).execute();
    expect(new Set(rows.map((r) => r.blob_hash)).size).toBe(1);
    const blob = await s.rt.services.db.selectFrom('blobs').select('refcount').where('hash', '=', rows[0]!.blob_hash).executeTakeFirstOrThrow();
    expect(blob.refcount).toBe(3);
  });

  it('keeps a small mail in its blob row, with no file, and a bigger one in a file; both read back whole and are collected', async () => {
    const stamp = Date.now();
    const body = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} of ${stamp}`).join('\n');
    await s.send({ from: 'rows@outside.example', to: 'alice@demo.test', subject: `row ${stamp}`, text: body(100) });
    await s.send({ from: 'rows@outside.example', to: 'alice@demo.test', subject: `file ${stamp}`, text: body(6000) });
    const rows = await s.rt.services.db.selectFrom('messages as m').innerJoin('blobs as b', 'b.hash', 'm.blob_hash').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
      .select(['m.id', 'c.subject', 'b.hash', 'b.size', 'b.data']).where('c.subject', 'in', [`row ${stamp}`, `file ${stamp}`]).execute();
    const row = rows.find((r) => r.subject === `row ${stamp}`)!;
    const file = rows.find((r) => r.subject === `file ${stamp}`)!;
    expect(row.size).toBeLessThanOrEqual(ROW_BLOB_MAX);
    expect(Buffer.from(row.data!).length).toBe(row.size);
    expect(await s.rt.services.blobs.store.has(row.hash)).toBe(false);
    expect(file.size).toBeGreaterThan(ROW_BLOB_MAX);
    expect(file.data).toBeNull();
    expect(await s.rt.services.blobs.store.has(file.hash)).toBe(true);
    // Read back whole through every way a blob is read: whole, streamed, a range, its head; and the original download.
    for (const r of [row, file]) {
      const raw = await s.rt.services.blobs.get(r.hash);
      expect(raw.length).toBe(r.size);
      expect(raw.toString()).toContain(`line 99 of ${stamp}`);
      const streamed: Buffer[] = [];
      for await (const chunk of await s.rt.services.blobs.stream(r.hash)) streamed.push(chunk as Buffer);
      expect(Buffer.concat(streamed).equals(raw)).toBe(true);
      const part: Buffer[] = [];
      for await (const chunk of await s.rt.services.blobs.stream(r.hash, { start: 10, end: 19 })) part.push(chunk as Buffer);
      expect(Buffer.concat(part).equals(raw.subarray(10, 20))).toBe(true);
      expect((await s.rt.services.blobs.head(r.hash, 100)).subarray(0, 100).equals(raw.subarray(0, 100))).toBe(true);
      const read = await s.get<Mail>('/h5/read/index', { mid: String(r.id) }, alice);
      expect(read.data.text).toContain(`line 99 of ${stamp}`);
    }
    // Deleted for good, both go: the row with its bytes, the file with its row.
    const ids = rows.map((r) => String(r.id)).join(',');
    await s.post('/h5/mailop/delete', { ids }, alice);
    expect((await s.post('/h5/mailop/purge', { ids }, alice)).data).toEqual({ changed: 2 });
    await s.rt.services.blobs.collect();
    for (const r of rows) {
      expect(await s.rt.services.blobs.has(r.hash)).toBe(false);
      expect(await s.rt.services.db.selectFrom('blobs').select('hash').where('hash', '=', r.hash).executeTakeFirst()).toBeUndefined();
    }
  });

  it('answers 451 and stores nothing when the blob cannot be written', async () => {
    const tmp = path.join(s.dataDir, 'blobs', 'tmp');
    await fs.rm(tmp, { recursive: true });
    await fs.writeFile(tmp, 'not a directory');
    try {
      const total = (await s.get<MailList>('/h5/mail/list', { mid: '0' }, alice)).data.total;
      // Above ROW_BLOB_MAX, so its bytes go to a file (a smaller mail's go to its row).
      await expect(s.send({ from: 'x@outside.example', to: 'alice@demo.test', subject: 'lost?', text: 'x'.repeat(ROW_BLOB_MAX + 1000) })).rejects.toThrow(/451 4\.3\.0/);
      expect((await s.get<MailList>('/h5/mail/list', { mid: '0' }, alice)).data.total).toBe(total);
    } finally {
      await fs.rm(tmp);
      await fs.mkdir(tmp);
    }
    const ok = await s.send({ from: 'x@outside.example', to: 'alice@demo.test', subject: 'after the fault', text: 't' });
    expect(ok.response).toMatch(/^250 /);
  });
});

describe('SMTP size limit', () => {
  let small: TestServer;
  beforeAll(async () => { small = await startTestServer({ smtp: { host: '127.0.0.1', port: 0, maxBytes: 20_000, socketTimeoutMs: 60_000, hostname: 'mx.test.local' } }); });
  afterAll(async () => small?.stop());

  it('answers 552 over the configured size and keeps serving', async () => {
    await expect(small.send({ from: 'x@outside.example', to: 'alice@demo.test', subject: 'big', text: 'a'.repeat(40_000) })).rejects.toThrow(/552 5\.3\.4/);
    const ok = await small.send({ from: 'x@outside.example', to: 'alice@demo.test', subject: 'small', text: 'fits' });
    expect(ok.response).toMatch(/^250 /);
  });
});
