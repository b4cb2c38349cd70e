import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { openSmtp, startTransaction } from './smtp-socket.js';

// Finding 2 of issue 12: DATA past the size limit used to be kept in memory until the
// end of the message. The server runs in this process, so its memory is ours to watch.

const MB = 1024 * 1024;

// What the server still holds, not garbage the collector has not reached yet: Node 24
// collects external memory later than Node 20, so unforced samples measured the GC.
// The server project's forks run with --expose-gc (vitest.config.ts).
const collect = (globalThis as { gc?: () => void }).gc ?? (() => { throw new Error('run with --expose-gc (vitest.config.ts sets it)'); });
const MAX_BYTES = 10 * MB;

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ smtp: { host: '127.0.0.1', port: 0, maxBytes: MAX_BYTES, socketTimeoutMs: 60_000, hostname: 'mx.test.local' } });
});
afterAll(async () => s?.stop());

/** One DATA transaction to alice over a raw socket; the body is written in chunks with backpressure. */
async function deliver(body: AsyncIterable<Buffer> | Buffer[]): Promise<string> {
  const c = await openSmtp(s.smtpPort);
  try {
    await startTransaction(c);
    c.send('RCPT TO:<alice@demo.test>');
    expect(await c.reply()).toMatch(/^250 /);
    c.send('DATA');
    expect(await c.reply()).toMatch(/^354 /);
    for await (const chunk of body) await c.write(chunk);
    await c.write('.\r\n');
    return await c.reply();
  } finally {
    c.destroy();
  }
}

/** At least totalBytes of message, generated as it is sent in 1,000-byte lines (RFC 5321 §4.5.3.1.6): nothing big is held here. */
async function* generated(totalBytes: number): AsyncIterable<Buffer> {
  const chunk = Buffer.from(`${'x'.repeat(998)}\r\n`.repeat(64));
  yield Buffer.from('From: <big@outside.example>\r\nTo: <alice@demo.test>\r\nSubject: huge\r\n\r\n');
  for (let sent = 0; sent < totalBytes; sent += chunk.length) yield chunk;
}

/** A message of exactly `bytes` octets as smtp-server counts them (the CRLF before the final dot included). */
function exactMessage(bytes: number): Buffer {
  const head = 'From: <edge@outside.example>\r\nTo: <alice@demo.test>\r\nSubject: at the limit\r\n\r\n';
  const out = Buffer.alloc(bytes, 'z');
  out.write(head, 0, 'latin1');
  for (let at = head.length + 998; at + 2 < bytes - 2; at += 1000) out.write('\r\n', at, 'latin1');
  out.write('\r\n', bytes - 2, 'latin1');
  return out;
}

describe('DATA over the size limit is not kept in memory', () => {
  it('three 150 MB messages at once get 552 while memory grows far less than one of them', async () => {
    collect();
    const before = process.memoryUsage();
    const peak = { rss: before.rss, arrayBuffers: before.arrayBuffers };
    // A forced full collection takes tens of milliseconds here, and the server shares this
    // thread: sampling every 50 ms took most of the CPU, and the test ran past its time-out
    // in a loaded CI run. So the next sample waits four times as long as the last collection
    // took. Held data would grow steadily to the final dot, so a few samples a second see it.
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const t0 = performance.now();
        collect();
        const gcMs = performance.now() - t0;
        // ArrayBuffers found dead are freed by a background sweeper just after gc() returns.
        await sleep(5);
        const m = process.memoryUsage();
        peak.rss = Math.max(peak.rss, m.rss);
        peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
        await sleep(Math.max(50, 4 * gcMs));
      }
    })();
    const started = performance.now();
    try {
      const replies = await Promise.all([0, 1, 2].map(() => deliver(generated(150 * MB))));
      for (const r of replies) expect(r).toMatch(/^552 5\.3\.4 /);
    } finally {
      sampling = false;
      await sampler;
    }
    const growth = { rssMb: (peak.rss - before.rss) / MB, arrayBuffersMb: (peak.arrayBuffers - before.arrayBuffers) / MB };
    console.info(`3 x 150 MB over a ${MAX_BYTES / MB} MB limit: ${JSON.stringify(growth)}, ${Math.round(performance.now() - started)} ms`);
    // Before the fix all 450 MB were held until the final dot: arrayBuffers is the measure
    // that shows it (245 MB then). RSS also moves with the heap and the collector, so it
    // only gets a loose bound, far under the 450 MB sent (it once grew 62 MB under CI load).
    expect(growth.arrayBuffersMb).toBeLessThan(60);
    expect(growth.rssMb).toBeLessThan(200);
  }, 180_000);

  it('a message of exactly the limit arrives whole, one byte more gets 552', async () => {
    const exact = exactMessage(MAX_BYTES);
    const ok = await deliver([exact]);
    expect(ok).toMatch(/^250 /);
    const id = Number(/stored as (\d+)/.exec(ok)?.[1]);
    const row = await s.rt.services.db.selectFrom('messages').select('blob_hash').where('id', '=', id).executeTakeFirstOrThrow();
    const raw = await s.rt.services.blobs.get(row.blob_hash);
    expect(raw.subarray(raw.length - exact.length).equals(exact)).toBe(true);
    // Only trace headers come before it.
    const prefix = raw.subarray(0, raw.length - exact.length).toString();
    expect(prefix).toMatch(/^Return-Path: <sender@outside\.example>\r\n/);
    expect(prefix).toMatch(/\r\nReceived: from [^\r]*\r\n\tby mx\.test\.local \(Mailwing\)/);

    expect(await deliver([exactMessage(MAX_BYTES + 1)])).toMatch(/^552 5\.3\.4 /);
  }, 60_000);
});
