import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerConfig } from '../src/cluster/worker.js';
import { defaultProcesses, loadConfig, testConfig } from '../src/config.js';
import { startDnsStandIn } from './dns-standin.js';
import { startMxStandIn, type MxStandIn } from './mx-standin.js';
import { openSmtp } from './smtp-socket.js';
import { childProcesses, socketOwner } from './socket-owner.js';

// `npm start` with PROCESSES=2 on PostgreSQL, as a real child process: a cluster primary and two
// workers sharing the HTTP and SMTP ports. Which worker took a connection is read from the
// kernel's socket tables (socket-owner.ts), so the server needs no debugging aid for it.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PG_URL = process.env.DATABASE_URL;

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

describe('settings', () => {
  it('defaults to one process per core on PostgreSQL and to one on PGlite, and refuses several on PGlite', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db.invalid/x' }).processes).toBe(os.availableParallelism());
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/x' }).processes).toBe(Math.max(1, Math.floor(os.availableParallelism() / 2)));
    expect(loadConfig({}).processes).toBe(1);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.invalid/x', PROCESSES: '1' }).processes).toBe(1);
    expect(() => loadConfig({ PROCESSES: '2' })).toThrow(/PROCESSES=2 needs DATABASE_URL/);
  });

  it('gives a machine that also runs the database half its cores: a loopback host or a Unix socket', () => {
    for (const url of ['postgres://u@localhost/x', 'postgres://u@127.0.0.1:5432/x', 'postgres://u@[::1]/x', 'postgres://u@localhost/x?host=/var/run/postgresql', 'postgres://u@%2Fvar%2Frun%2Fpostgresql/x', 'postgres://db.example/x?host=/tmp']) {
      expect([url, defaultProcesses(url, 8)]).toEqual([url, 4]);
    }
    expect(defaultProcesses('postgres://u@localhost/x', 2)).toBe(1);
    expect(defaultProcesses('postgres://u@localhost/x', 1)).toBe(1);
    for (const url of ['postgres://u@db.example/x', 'postgres://u@10.0.0.5:5432/x', 'postgres://u@db.example/x?host=db2.example']) {
      expect([url, defaultProcesses(url, 8)]).toEqual([url, 8]);
    }
    expect(defaultProcesses(undefined, 8)).toBe(1);
  });

  it('keeps one process as it was, and gives each of several its share of the per-IP SMTP caps and of the connection pool', () => {
    const one = loadConfig({ DATABASE_URL: 'postgres://db.invalid/x', PROCESSES: '1' });
    expect(one.databasePoolSize).toBe(10);
    expect(one.parseWorkers).toBe(Math.max(1, os.availableParallelism() - 1));
    const four = loadConfig({ DATABASE_URL: 'postgres://db.invalid/x', PROCESSES: '4', SMTP_MAX_CONNECTIONS_PER_IP: '20', SMTP_CONNECTIONS_PER_MINUTE_PER_IP: '61' });
    expect(four.databasePoolSize).toBe(5);
    expect(workerConfig(four).smtpLimits).toMatchObject({ maxConnectionsPerIp: 5, connectionsPerMinutePerIp: 16 });
    expect(workerConfig({ ...four, processes: 64 }).smtpLimits.maxConnectionsPerIp).toBe(1);
    expect(workerConfig(testConfig({ dataDir: '/nowhere' })).smtpLimits).toEqual(testConfig({ dataDir: '/nowhere' }).smtpLimits);
  });
});

describe.skipIf(!PG_URL)('several processes on one machine (PostgreSQL only: set DATABASE_URL to run)', () => {
  let server: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;
  let workers: number[] = [];
  let httpPort = 0;
  let smtpPort = 0;
  let mx: MxStandIn;
  let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
  let db: pg.Client;
  let dbName = '';
  let dataDir = '';
  let alice = '';

  beforeAll(async () => {
    dbName = `mw_test_cluster_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(PG_URL!);
    url.pathname = `/${dbName}`;
    db = new pg.Client({ connectionString: url.toString() });

    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-cluster-'));
    mx = await startMxStandIn();
    dns = await startDnsStandIn({});
    [httpPort, smtpPort] = [await freePort(), await freePort()];
    server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
      cwd: root,
      env: {
        ...process.env, PROCESSES: '2', DATABASE_URL: url.toString(), DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'warn',
        HOST: '127.0.0.1', PORT: String(httpPort), SMTP_PORT: String(smtpPort), DNS_SERVERS: dns.server, WORKERS: '1', PARSE_WORKERS: '1',
        SMTP_RELAY: `smtp://127.0.0.1:${mx.port}`, DELIVERY_POLL_MS: '100', SMTP_MAX_CONNECTIONS_PER_IP: '1000', SMTP_CONNECTIONS_PER_MINUTE_PER_IP: '100000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d: Buffer) => { output += d.toString(); });
    server.stderr!.on('data', (d: Buffer) => { output += d.toString(); });
    exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
    // The primary prints the demo banner once every worker listens.
    await until('the server to start', () => {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}:\n${output}`);
      return output.includes('Mailwing demo:');
    }, 90_000).catch((err: Error) => { throw new Error(`${err.message}\n${output}`); });
    workers = childProcesses(server.pid!, 'main.ts');
    await db.connect();
    alice = await login('alice@demo.test');
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      // Children first: once the primary is gone they are no longer found as its children.
      for (const pid of childProcesses(server.pid!, 'main.ts')) process.kill(pid, 'SIGKILL');
      server.kill('SIGKILL');
    }
    await db?.end().catch(() => undefined);
    await mx?.close();
    await dns?.close();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  async function login(email: string): Promise<string> {
    const r = await fetch(`http://127.0.0.1:${httpPort}/h5/login/h5`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password: 'demo1234' }).toString() });
    const body = (await r.json()) as { code: number; data: { token: string } };
    if (body.code !== 200) throw new Error(`login ${email}: ${JSON.stringify(body)}`);
    return body.data.token;
  }

  async function post(route: string, form: Record<string, string | number>, token: string): Promise<{ code: number; data: { id: string } }> {
    const r = await fetch(`http://127.0.0.1:${httpPort}${route}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
      body: new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    });
    return (await r.json()) as { code: number; data: { id: string } };
  }

  /** A GET on a connection of its own, answering which worker held it. */
  function get(route: string, token: string): Promise<{ owner: number | undefined; status: number; body: string }> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    return new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: httpPort, path: route, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        // Asked while the connection is open: keep-alive holds it after the answer too.
        const owner = socketOwner(httpPort, res.socket.localPort!, workers);
        let body = '';
        res.on('data', (d: Buffer) => { body += d.toString(); });
        res.on('end', () => { agent.destroy(); resolve({ owner, status: res.statusCode!, body }); });
      }).on('error', reject);
    });
  }

  /** One SMTP session to alice; `via` makes it leave without sending unless that worker took it. Answers the worker, or undefined. */
  async function smtpTo(rcpt: string, subject: string, via?: (owner: number) => boolean): Promise<number | undefined> {
    const c = await openSmtp(smtpPort);
    try {
      expect(await c.reply()).toMatch(/^220 /);
      const owner = socketOwner(smtpPort, c.socket.localPort!, workers);
      if (owner === undefined || (via && !via(owner))) {
        c.send('QUIT');
        await c.reply();
        return undefined;
      }
      for (const [line, want] of [['EHLO client.outside.example', /^250/], ['MAIL FROM:<someone@outside.example>', /^250 /], [`RCPT TO:<${rcpt}>`, /^250 /], ['DATA', /^354 /]] as const) {
        c.send(line);
        expect(await c.reply()).toMatch(want);
      }
      await c.write(`From: someone@outside.example\r\nTo: ${rcpt}\r\nSubject: ${subject}\r\n\r\nsent through worker ${owner}\r\n.\r\n`);
      expect(await c.reply()).toMatch(/^250 /);
      c.send('QUIT');
      await c.reply();
      return owner;
    } finally {
      c.destroy();
    }
  }

  it('forks two workers from one primary, which seeded the demo once', async () => {
    expect(workers).toHaveLength(2);
    expect(new Set(workers).size).toBe(2);
    expect((await db.query('SELECT count(*)::int AS n FROM users')).rows[0]).toEqual({ n: 3 });
  });

  it('serves SMTP and HTTP on the same ports from both processes', async () => {
    const smtpOwners: (number | undefined)[] = [];
    for (let i = 0; i < 12; i++) smtpOwners.push(await smtpTo('alice@demo.test', `Spread ${i}`));
    expect(smtpOwners.every((o) => o !== undefined)).toBe(true);
    expect(new Set(smtpOwners)).toEqual(new Set(workers));

    const pages = await Promise.all(Array.from({ length: 12 }, () => get('/h5/mail/list?mid=0', alice)));
    for (const p of pages) expect(p.status).toBe(200);
    expect(new Set(pages.map((p) => p.owner))).toEqual(new Set(workers));
    // Whichever process answers sees every mail, whichever process took it in.
    for (const p of pages) {
      const subjects = (JSON.parse(p.body) as { data: { list: { subject: string }[] } }).data.list.map((m) => m.subject);
      for (let i = 0; i < 12; i++) expect(subjects).toContain(`Spread ${i}`);
    }
  }, 60_000);

  it('brings mail taken in by one process to a live stream held by the other', async () => {
    const events: { event: string; ids: string[]; kinds: string[] }[] = [];
    const agent = new http.Agent({ keepAlive: true });
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: httpPort, path: '/h5/events', agent, headers: { authorization: `Bearer ${alice}` } }, resolve).on('error', reject);
    });
    try {
      const streamOwner = socketOwner(httpPort, stream.socket.localPort!, workers);
      expect(workers).toContain(streamOwner);
      let buffer = '';
      stream.on('data', (d: Buffer) => {
        buffer += d.toString();
        let at;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event || !data) continue;
          const d = JSON.parse(data) as { ids?: string[]; kinds?: string[] };
          events.push({ event, ids: d.ids ?? [], kinds: d.kinds ?? [] });
        }
      });
      await until('hello', () => events.some((e) => e.event === 'hello'));

      // Sessions the stream's own process takes end before MAIL; the first the other takes delivers.
      let deliveredBy: number | undefined;
      for (let i = 0; i < 20 && deliveredBy === undefined; i++) deliveredBy = await smtpTo('alice@demo.test', 'Across processes', (o) => o !== streamOwner);
      expect(deliveredBy).toBeDefined();
      expect(deliveredBy).not.toBe(streamOwner);
      const row = await db.query<{ id: number }>(
        `SELECT m.id FROM messages m JOIN mail_contents c ON c.id = m.content_id JOIN users u ON u.id = m.user_id
         WHERE u.email = 'alice@demo.test' AND c.subject = 'Across processes'`);
      expect(row.rows).toHaveLength(1);
      const id = String(row.rows[0]!.id);
      const ev = await until('the new mail on the stream', () => events.find((e) => e.event === 'mail' && e.kinds.includes('new') && e.ids.includes(id)), 15_000);
      expect(ev).toBeDefined();
    } finally {
      stream.destroy();
      agent.destroy();
    }
  }, 60_000);

  it('never runs one timed send or one delivery job twice, with both processes working the queues', async () => {
    const senders = new Set<number | undefined>();
    mx.onConnect = (port) => senders.add(socketOwner(port, mx.port, workers));
    // A slow remote server keeps jobs in flight, so both processes' claims overlap.
    mx.beforeAnswer = () => new Promise((r) => setTimeout(r, 20));
    const N = 30;
    const far = Math.floor(Date.now() / 1000) + 3600;
    await Promise.all(Array.from({ length: N }, async (_, i) => {
      expect((await post('/h5/write/send', { to: `now${i}@partner.test`, subject: `now ${i}`, text: 'x' }, alice)).code).toBe(200);
      expect((await post('/h5/write/send', { to: `timed${i}@partner.test, bob@demo.test`, subject: `timed ${i}`, text: 'x', sendAt: far }, alice)).code).toBe(200);
    }));
    // Time passes for every timed send at once: all become due together, on both processes' pollers.
    expect((await db.query("UPDATE dispatches SET send_at = now() WHERE state = 'scheduled'")).rowCount).toBe(N);

    await until('every job done', async () => {
      const left = await db.query<{ n: number }>("SELECT (SELECT count(*) FROM dispatches)::int + (SELECT count(*) FROM outbox WHERE status <> 'sent')::int AS n");
      return left.rows[0]!.n === 0 && mx.received.length >= 2 * N;
    }, 60_000);

    const subjects = mx.received.map((m) => /^Subject: (.*)$/m.exec(m.raw.toString())?.[1]?.trim());
    const expected = Array.from({ length: N }, (_, i) => [`now ${i}`, `timed ${i}`]).flat();
    expect(subjects.sort()).toEqual(expected.sort());
    // A second claim of a job would have counted a second attempt.
    const attempts = await db.query<{ attempts: number; n: number }>('SELECT attempts, count(*)::int AS n FROM outbox GROUP BY attempts');
    expect(attempts.rows).toEqual([{ attempts: 1, n: 2 * N }]);
    // A timed send dispatched twice would have put a second copy in bob's Inbox.
    const copies = await db.query<{ subject: string; n: number }>(
      `SELECT c.subject, count(*)::int AS n FROM messages m JOIN mail_contents c ON c.id = m.content_id JOIN users u ON u.id = m.user_id
       WHERE u.email = 'bob@demo.test' AND c.subject LIKE 'timed %' GROUP BY c.subject`);
    expect(copies.rows).toHaveLength(N);
    expect(copies.rows.every((r) => r.n === 1)).toBe(true);
    expect(senders).toEqual(new Set(workers));
    mx.onConnect = undefined;
    mx.beforeAnswer = undefined;
  }, 120_000);

  it('replaces a worker that dies, while the other keeps serving', async () => {
    const [victim, survivor] = workers as [number, number];
    process.kill(victim, 'SIGKILL');
    const replacement = await until('a replacement worker', () => {
      const now = childProcesses(server.pid!, 'main.ts');
      return now.length === 2 && !now.includes(victim) && now.includes(survivor) ? now.find((p) => p !== survivor) : undefined;
    });
    workers = [survivor, replacement];
    // Until the replacement listens, the primary hands every connection to the survivor.
    await until('both serving', async () => {
      const owners = await Promise.all(Array.from({ length: 6 }, () => get('/h5/mbox/index', alice)));
      return owners.every((o) => o.status === 200) && new Set(owners.map((o) => o.owner)).size === 2;
    });
    expect(await smtpTo('alice@demo.test', 'After the replacement')).toBeDefined();
  }, 60_000);

  it('stops every process gracefully on SIGTERM', async () => {
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);
});
