import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MboxIndex } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;

beforeAll(async () => {
  ({ s, alice } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

interface Sse { event: string; data: { mbox?: MboxIndex; kinds?: string[]; folders?: string[] } }

/** Opens the stream the way the web client does: fetch with a Bearer header, reading events as they come. */
async function openStream(base: string, token: string) {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/h5/events`, { headers: { authorization: `Bearer ${token}` }, signal: ctrl.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: Sse[] = [];
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let at;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) as Sse['data'] });
      }
    }
  })();
  return {
    events,
    async next(pred: (e: Sse) => boolean, ms = 10_000): Promise<Sse> {
      const deadline = Date.now() + ms;
      for (;;) {
        const hit = events.find(pred);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no matching event; got ${JSON.stringify(events.map((e) => e.event))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: async () => { ctrl.abort(); await pump; },
  };
}

const inboxCount = (m: MboxIndex | undefined) => m?.system.find((f) => f.mid === '0')?.count ?? -1;

describe('live updates', () => {
  it('streams new mail with fresh counts, and other devices’ changes', async () => {
    const stream = await openStream(s.base, alice);
    const hello = await stream.next((e) => e.event === 'hello');
    const before = inboxCount(hello.data.mbox);
    await s.send({ from: 'x@outside.example', to: 'alice@demo.test', subject: 'Live one', text: 'hi' });
    const ev = await stream.next((e) => e.event === 'mail' && e.data.kinds!.includes('new'));
    expect(ev.data.folders).toContain('0');
    expect(inboxCount(ev.data.mbox)).toBe(before + 1);
    // Another device marks everything read: this stream hears it.
    await s.post('/h5/mailop/read-all', { mid: '0' }, await s.login('alice@demo.test'));
    const changed = await stream.next((e) => e.event === 'mail' && e.data.kinds!.includes('changed'));
    expect(inboxCount(changed.data.mbox)).toBe(0);
    await stream.close();
  });

  it('refuses a stream without a session', async () => {
    const r = await fetch(`${s.base}/h5/events`);
    expect(await r.json()).toMatchObject({ code: 401 });
  });

  it.runIf(process.env.DATABASE_URL)('survives PostgreSQL closing its connections: queries go on, streams resync and events resume', async () => {
    const stream = await openStream(s.base, alice);
    await stream.next((e) => e.event === 'hello');
    const admin = new pg.Client({ connectionString: s.config.databaseUrl });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    await admin.end();
    // The LISTEN connection comes back after a second and tells the stream it may have missed something.
    await stream.next((e) => e.event === 'mail' && e.data.kinds!.includes('resync'));
    expect((await s.get('/h5/mbox/index', {}, alice)).code).toBe(200);
    await s.send({ from: 'z@outside.example', to: 'alice@demo.test', subject: 'After the restart', text: 'hi' });
    await stream.next((e) => e.event === 'mail' && e.data.kinds!.includes('new'));
    await stream.close();
  }, 30_000);

  it.runIf(process.env.DATABASE_URL)('delivers mail accepted by SMTP on node A to a stream open on node B (PostgreSQL LISTEN/NOTIFY)', async () => {
    const child = fork(fileURLToPath(new URL('./fixtures/server-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, DATABASE_URL: s.config.databaseUrl, DATA_DIR: s.config.dataDir, PORT: '0', SMTP_PORT: '0', HOST: '127.0.0.1', WORKERS: '0', LOG_LEVEL: 'silent', PARSE_WORKERS: '1',
        // The harness's loopback DNS, for node A's sender authentication.
        DNS_SERVERS: s.config.delivery.dnsServers.join(',') },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    try {
      const ports = await new Promise<{ http: number; smtp: number }>((resolve, reject) => {
        child.once('message', (m) => resolve(m as { http: number; smtp: number }));
        child.once('exit', (code) => reject(new Error(`node A exited with ${code}`)));
      });
      const stream = await openStream(s.base, alice);
      await stream.next((e) => e.event === 'hello');
      const a = nodemailer.createTransport({ host: '127.0.0.1', port: ports.smtp, secure: false, ignoreTLS: true });
      await a.sendMail({ from: 'y@outside.example', to: 'alice@demo.test', subject: 'Via node A', text: 'cross-node' });
      a.close();
      const ev = await stream.next((e) => e.event === 'mail' && e.data.kinds!.includes('new'));
      expect(ev.data.folders).toContain('0');
      await stream.close();
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 60_000);
});
