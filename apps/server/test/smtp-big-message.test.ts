import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail } from '@mailwing/shared';
import { STALE_TEMP_MS } from '../src/blob/file-blob-store.js';
import { startDemo, type TestServer } from './harness.js';
import { openSmtp, startTransaction, type SmtpSocket } from './smtp-socket.js';

// Issue 13: DATA past the in-memory threshold (256 KB) is written to a spool in the blob
// store as it arrives, the blob is our headers followed by that spool, and the parser
// reads it back from the store. These tests watch the store's temp directory.

const MB = 1024 * 1024;
const MAX_BYTES = 12 * MB;

let s: TestServer;
let alice: string;
let tmpDir: string;

beforeAll(async () => {
  ({ s, alice } = await startDemo({ smtp: { host: '127.0.0.1', port: 0, maxBytes: MAX_BYTES, socketTimeoutMs: 60_000, hostname: 'mx.test.local' } }));
  tmpDir = path.join(s.dataDir, 'blobs', 'tmp');
});
afterAll(async () => s?.stop());

/** Sizes of the files in the store's temp directory. */
async function tempFiles(): Promise<number[]> {
  const out: number[] = [];
  for (const name of await fs.readdir(tmpDir)) {
    const st = await fs.stat(path.join(tmpDir, name)).catch(() => null);
    if (st) out.push(st.size);
  }
  return out;
}

/** Polls (bounded) until the temp directory satisfies `ok`; returns the last listing. */
async function untilTemp(ok: (sizes: number[]) => boolean, what: string): Promise<number[]> {
  const until = Date.now() + 15_000;
  for (;;) {
    const sizes = await tempFiles();
    if (ok(sizes)) return sizes;
    if (Date.now() > until) throw new Error(`temp directory never ${what}: ${JSON.stringify(sizes)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const messageCount = async () => Number((await s.rt.services.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

const base64Lines = (data: Buffer) => data.toString('base64').replace(/.{76}/g, '$&\r\n');

/** A multipart message with two binary attachments; some text lines start with a dot, so DATA transparency is exercised. */
function bigMessage(attachments: Buffer[], from = 'big@outside.example'): Buffer {
  const parts = [
    `From: <${from}>\r\nTo: <alice@demo.test>\r\nSubject: a big one\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b0und"\r\n\r\n`,
    '--b0und\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHere are the files.\r\n.a line that starts with a dot\r\n..and one with two\r\n',
    ...attachments.map((a, i) => `--b0und\r\nContent-Type: application/octet-stream; name="part${i}.bin"\r\nContent-Disposition: attachment; filename="part${i}.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(a)}\r\n`),
    '--b0und--\r\n',
  ];
  return Buffer.from(parts.join(''), 'latin1');
}

/** RFC 5321 §4.5.2: a line that starts with a dot gets one more. */
const dotStuffed = (msg: Buffer) => Buffer.from(msg.toString('latin1').replace(/^\./gm, '..'), 'latin1');

async function openData(from = 'sender@outside.example'): Promise<SmtpSocket> {
  const c = await openSmtp(s.smtpPort);
  await startTransaction(c, from);
  c.send('RCPT TO:<alice@demo.test>');
  expect(await c.reply()).toMatch(/^250 /);
  c.send('DATA');
  expect(await c.reply()).toMatch(/^354 /);
  return c;
}

/** Writes in 64 KB pieces with backpressure. */
async function writeAll(c: SmtpSocket, data: Buffer): Promise<void> {
  for (let at = 0; at < data.length; at += 64 * 1024) await c.write(data.subarray(at, at + 64 * 1024));
}

/** Sends DATA and its final dot, checking halfway that what came so far is on disk while the client still holds the rest. */
async function sendSpooled(c: SmtpSocket, wire: Buffer): Promise<string> {
  const half = Math.floor(wire.length / 2);
  await writeAll(c, wire.subarray(0, half));
  await untilTemp((sizes) => sizes.some((n) => n >= MB), 'held a spool of the first half');
  await writeAll(c, wire.subarray(half));
  await c.write('.\r\n');
  return c.reply();
}

describe('a message bigger than the in-memory threshold', () => {
  it('goes to disk as it arrives and is stored whole and byte-exact, attachments included', async () => {
    const files = [randomBytes(2 * MB + 123), randomBytes(Math.round(1.5 * MB))];
    const sent = bigMessage(files);
    expect(sent.length).toBeGreaterThan(4.5 * MB);
    const wire = dotStuffed(sent);
    const c = await openData();
    let reply: string;
    try {
      reply = await sendSpooled(c, wire);
    } finally {
      c.destroy();
    }
    expect(reply).toMatch(/^250 /);
    const id = Number(/stored as (\d+)/.exec(reply)?.[1]);

    const row = await s.rt.services.db.selectFrom('messages').select(['blob_hash', 'size']).where('id', '=', id).executeTakeFirstOrThrow();
    const raw = await s.rt.services.blobs.get(row.blob_hash);
    expect(createHash('sha256').update(raw).digest('hex')).toBe(row.blob_hash);
    expect(Number(row.size)).toBe(raw.length);
    expect(raw.subarray(raw.length - sent.length).equals(sent)).toBe(true);
    // Only our trace and authentication headers come before it, in the order smtp-receive.test.ts expects.
    const prefix = raw.subarray(0, raw.length - sent.length).toString('latin1');
    expect(prefix).toMatch(/^Return-Path: <sender@outside\.example>\r\n(?:(?:Received-SPF|Authentication-Results):[^\r\n]*\r\n(?:[ \t][^\r\n]*\r\n)*)+Received: from [^\r]*\r\n\tby mx\.test\.local \(Mailwing\)[^]*\r\n$/);

    const mail = (await s.get<Mail>('/h5/read/index', { mid: String(id) }, alice)).data;
    expect(mail.subject).toBe('a big one');
    expect(mail.text).toContain('.a line that starts with a dot');
    expect(mail.attachments.map((a) => a.name)).toEqual(['part0.bin', 'part1.bin']);
    for (const [i, a] of mail.attachments.entries()) {
      const res = await fetch(`${s.base}/h5/attach/download?id=${a.id}&t=${alice}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(files[i]!)).toBe(true);
    }
    // The spool is gone and the staging link released.
    expect(await tempFiles()).toEqual([]);
  }, 60_000);

  it('refused after DATA, over the size limit or by sender authentication, leaves no file', async () => {
    const before = await messageCount();
    const over = await openData();
    try {
      expect(await sendSpooled(over, dotStuffed(bigMessage([randomBytes(MAX_BYTES)])))).toMatch(/^552 5\.3\.4 /);
    } finally {
      over.destroy();
    }
    // A header From in a domain hosted here, from outside (inbound-auth.ts), read back from the spool.
    const forged = await openData();
    try {
      expect(await sendSpooled(forged, dotStuffed(bigMessage([randomBytes(3 * MB)], 'ceo@demo.test')))).toMatch(/^550 5\.7\.1 From: names demo\.test/);
    } finally {
      forged.destroy();
    }
    expect(await tempFiles()).toEqual([]);
    expect(await messageCount()).toBe(before);
  }, 60_000);
});

describe('a client that goes away mid-DATA', () => {
  it('leaves no row, and its spool is removed at once', async () => {
    const before = await messageCount();
    const c = await openData();
    try {
      await writeAll(c, dotStuffed(bigMessage([randomBytes(3 * MB)])).subarray(0, 2 * MB));
      await untilTemp((sizes) => sizes.some((n) => n >= MB), 'held a spool');
    } finally {
      c.destroy();
    }
    await untilTemp((sizes) => sizes.length === 0, 'emptied');
    expect(await messageCount()).toBe(before);
    // The server goes on taking mail.
    expect((await s.send({ from: 'after@outside.example', to: 'alice@demo.test', subject: 'after', text: 'x' })).response).toMatch(/^250 /);
  }, 60_000);

  it('what a crash left behind is swept once older than any live upload, and nothing younger is', async () => {
    const stale = path.join(tmpDir, 'left-by-a-crash');
    const live = path.join(tmpDir, 'someone-uploading');
    await fs.writeFile(stale, 'half a message');
    await fs.writeFile(live, 'a message on its way');
    const old = new Date(Date.now() - STALE_TEMP_MS - 60_000);
    await fs.utimes(stale, old, old);
    try {
      expect(await s.rt.services.blobs.store.sweep(STALE_TEMP_MS)).toBe(1);
      expect(await fs.readdir(tmpDir)).toEqual(['someone-uploading']);
      // The same call an hour on: the other file's owner is gone too by then.
      expect(await s.rt.services.blobs.store.sweep(STALE_TEMP_MS, Date.now() + STALE_TEMP_MS + 1_000)).toBe(1);
      expect(await fs.readdir(tmpDir)).toEqual([]);
    } finally {
      await fs.rm(stale, { force: true });
      await fs.rm(live, { force: true });
    }
  });
});
