import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../src/blob/file-blob-store.js';
import { ParsePool } from '../src/features/message/parse-pool.js';
import { startDnsStandIn } from './dns-standin.js';

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

  it('checks the sender in the worker that parses: SPF and DMARC through DNS on loopback, as mailauth answers on the main thread', async () => {
    const dns = await startDnsStandIn({
      'good.example': { txt: ['v=spf1 ip4:127.0.0.1 -all'] },
      '_dmarc.good.example': { txt: ['v=DMARC1; p=reject'] },
      'slow.example': { silent: true },
    });
    try {
      const pool = new ParsePool(1, 30_000, undefined, { servers: [dns.server], timeoutMs: 700 });
      pools.push(pool);
      const peer = { ip: '127.0.0.1', helo: 'mta.good.example', mailFrom: 'a@good.example', mta: 'mx.test' };
      const raw = Buffer.from('From: a@good.example\r\nTo: b@x.test\r\nSubject: checked\r\n\r\nhello\r\n');
      const job = pool.parseAndCheck(raw, 'a@good.example', peer);
      const [content, auth] = await Promise.all([job.content, job.checked]);
      expect(content.subject).toBe('checked');
      expect(auth!.spf && auth!.spf.status.result).toBe('pass');
      expect(auth!.dmarc && auth!.dmarc.status.result).toBe('pass');
      expect(auth!.headers).toMatch(/^Authentication-Results: mx\.test;/m);
      expect(dns.queries.some((q) => q.name === 'good.example' && q.type === 'TXT')).toBe(true);

      // A sender whose DNS never answers: the parse comes back first and frees the worker,
      // and the check follows once the resolver gives up (mailauth reports it as temperror).
      const slowRaw = Buffer.from('From: a@slow.example\r\nSubject: slow\r\n\r\nhello\r\n');
      const slow = pool.parseAndCheck(slowRaw, 'a@slow.example', { ...peer, mailFrom: 'a@slow.example', helo: 'slow.example' });
      let checkedAt = 0;
      void slow.checked!.then(() => { checkedAt = performance.now(); }, () => { checkedAt = performance.now(); });
      expect((await slow.content).subject).toBe('slow');
      const parsedAt = performance.now();
      expect(checkedAt).toBe(0);
      const later = await pool.parseAndCheck(mail('meanwhile'), 'a@good.example', peer).content;
      expect(later.subject).toBe('meanwhile');
      expect(checkedAt).toBe(0);
      const slowAuth = await slow.checked!;
      expect(checkedAt).toBeGreaterThan(parsedAt);
      expect(slowAuth.spf && slowAuth.spf.status.result).toBe('temperror');
    } finally {
      await dns.close();
    }
  });

  it('leaves the sender check to the caller without workers or without DNS settings', () => {
    expect(new ParsePool(0, 30_000, undefined, { servers: [], timeoutMs: 100 }).parseAndCheck(mail('x'), 'a@x.test', { ip: '127.0.0.1', helo: 'h', mailFrom: '', mta: 'mx' }).checked).toBeUndefined();
    const pool = new ParsePool(1);
    pools.push(pool);
    expect(pool.parseAndCheck(mail('x'), 'a@x.test', { ip: '127.0.0.1', helo: 'h', mailFrom: '', mta: 'mx' }).checked).toBeUndefined();
  });

  it('fails a pending sender check when its worker is replaced, and the parse is stored as unreadable', async () => {
    const dns = await startDnsStandIn({ 'slow.example': { silent: true } });
    try {
      const pool = new ParsePool(1, 300, undefined, { servers: [dns.server], timeoutMs: 5_000 });
      pools.push(pool);
      const peer = { ip: '127.0.0.1', helo: 'slow.example', mailFrom: 'a@slow.example', mta: 'mx.test' };
      const big = mail('slow', 'x'.repeat(5_000_000));
      const job = pool.parseAndCheck(big, 'a@slow.example', peer);
      const checked = job.checked!.then(() => 'answered', (err: Error) => err.message);
      expect((await job.content).parseError).toBe('parsing took too long');
      expect(await checked).toBe('parsing took too long');
    } finally {
      await dns.close();
    }
  });
});
