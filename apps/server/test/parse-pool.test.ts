import { afterAll, describe, expect, it } from 'vitest';
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

  it('parses on the main thread with no workers', async () => {
    const c = await new ParsePool(0).parse(mail('inline'), 'a@x.test');
    expect(c.subject).toBe('inline');
  });
});
