import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, MailList } from '@mailwing/shared';
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
    const raw = (await s.rt.services.blobs.store.get(blobs.blob_hash)).toString();
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

  it('answers 451 and stores nothing when the blob cannot be written', async () => {
    const tmp = path.join(s.dataDir, 'blobs', 'tmp');
    await fs.rm(tmp, { recursive: true });
    await fs.writeFile(tmp, 'not a directory');
    try {
      const total = (await s.get<MailList>('/h5/mail/list', { mid: '0' }, alice)).data.total;
      await expect(s.send({ from: 'x@outside.example', to: 'alice@demo.test', subject: 'lost?', text: 't' })).rejects.toThrow(/451 4\.3\.0/);
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
