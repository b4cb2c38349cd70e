import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import pg from 'pg';
import { inject } from 'vitest';
import { testConfig, type Config } from '../src/config.js';
import { startRuntime, type Runtime } from '../src/runtime.js';
import { cloneTemplate } from './db-template.js';
import { startDnsStandIn } from './dns-standin.js';

// Real sockets, a real database and real files for every test file. With DATABASE_URL
// set, each file gets a database of its own on that server, dropped afterwards.

export interface TestServer {
  rt: Runtime;
  base: string;
  smtpPort: number;
  dataDir: string;
  login(email: string, password?: string): Promise<string>;
  get<T = unknown>(route: string, query?: Record<string, string | number>, token?: string): Promise<Envelope<T>>;
  post<T = unknown>(route: string, body?: Record<string, string | number>, token?: string): Promise<Envelope<T>>;
  /** A POST with a JSON body, for routes whose input nests (rules, notes) where a form cannot. */
  postJson<T = unknown>(route: string, body: unknown, token?: string): Promise<Envelope<T> & { reason?: string }>;
  send(mail: SendMailOptions, envelope?: { from: string; to: string[] }): Promise<{ response: string; accepted: unknown[]; rejected: unknown[] }>;
  /** Stops the runtime and starts a new one on the same data and database, as a process restart would. */
  restart(overrides?: Partial<Config>): Promise<void>;
  /** Stops the runtime but keeps its data, for another process to open. */
  halt(): Promise<void>;
  config: Config;
  stop(): Promise<void>;
}

export interface Envelope<T> { code: number; data: T; error?: unknown; retryAfter?: number }

async function freshDatabase(adminUrl: string, create = true): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `mw_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  if (create) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startTestServer(overrides: Partial<Config> = {}, opts: { seed?: boolean } = {}): Promise<TestServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-test-'));
  const adminUrl = process.env.DATABASE_URL;
  // A seeded boot starts from a copy of the run's template (db-template.ts); the runtime still
  // runs its migrations on it. An unseeded one, or one outside the server project, starts empty.
  const template = (opts.seed ?? true) ? inject('mwDbTemplate') : undefined;
  const pgDb = adminUrl ? await freshDatabase(adminUrl, !template) : null;
  if (template) await cloneTemplate(template, dataDir, adminUrl, pgDb?.name);
  let config = testConfig({ dataDir, databaseUrl: pgDb?.url, ...overrides });
  // Inbound mail is checked with SPF, DKIM and DMARC: without a DNS server of its own
  // a test would ask the machine's resolver, off loopback. An empty zone answers NXDOMAIN.
  const dns = config.delivery.dnsServers.length === 0 ? await startDnsStandIn({}) : null;
  if (dns) config = { ...config, delivery: { ...config.delivery, dnsServers: [dns.server] } };
  let rt: Runtime | null = await startRuntime(config, { seed: opts.seed ?? true });
  let base = `http://127.0.0.1:${rt.httpPort}`;
  let transport = nodemailer.createTransport({ host: '127.0.0.1', port: rt.smtpPort, secure: false, ignoreTLS: true, pool: false });
  const halt = async () => {
    transport.close();
    await rt?.stop();
    rt = null;
  };

  const call = async <T>(method: 'GET' | 'POST', route: string, params: Record<string, string | number> = {}, token?: string): Promise<Envelope<T>> => {
    const p = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const res = method === 'GET'
      ? await fetch(`${base}${route}?${p}`, { headers })
      : await fetch(`${base}${route}`, { method, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: p.toString() });
    return (await res.json()) as Envelope<T>;
  };

  const server: TestServer = {
    get rt() {
      if (!rt) throw new Error('the runtime is halted');
      return rt;
    },
    get base() { return base; },
    get smtpPort() { return server.rt.smtpPort; },
    get config() { return config; },
    dataDir,
    halt,
    async restart(more = {}) {
      await halt();
      config = { ...config, ...more };
      rt = await startRuntime(config, { seed: false });
      base = `http://127.0.0.1:${rt.httpPort}`;
      transport = nodemailer.createTransport({ host: '127.0.0.1', port: rt.smtpPort, secure: false, ignoreTLS: true, pool: false });
    },
    async login(email, password = 'demo1234') {
      const r = await call<{ token: string }>('POST', '/h5/login/h5', { email, password });
      if (r.code !== 200) throw new Error(`login ${email} failed: ${JSON.stringify(r)}`);
      return r.data.token;
    },
    get: (route, query, token) => call('GET', route, query, token),
    post: (route, body, token) => call('POST', route, body, token),
    async postJson<T>(route: string, body: unknown, token?: string) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
      const res = await fetch(`${base}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
      return (await res.json()) as Envelope<T> & { reason?: string };
    },
    send: (mail, envelope) => transport.sendMail(envelope ? { ...mail, envelope } : mail),
    async stop() {
      await halt();
      await pgDb?.drop();
      await dns?.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** A demo server with alice's and bob's session tokens: the usual start of a test file. */
export async function startDemo(overrides: Partial<Config> = {}): Promise<{ s: TestServer; alice: string; bob: string }> {
  const s = await startTestServer(overrides);
  return { s, alice: await s.login('alice@demo.test'), bob: await s.login('bob@demo.test') };
}

/** Sends raw SMTP lines over a socket and collects the replies: for input nodemailer would never produce. */
export async function rawSmtp(port: number, script: (io: { send(line: string): void; reply(): Promise<string>; sendRaw(data: string | Buffer): void; closed: Promise<void> }) => Promise<void>): Promise<void> {
  const net = await import('node:net');
  const socket = net.connect(port, '127.0.0.1');
  let buffer = '';
  const waiters: ((s: string) => void)[] = [];
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const pump = () => {
    // A reply ends with a line "NNN text" (no dash after the code), RFC 5321 §4.2.1.
    for (;;) {
      const m = /^((?:\d{3}-[^\r\n]*\r\n)*\d{3}(?: [^\r\n]*)?\r\n)/.exec(buffer);
      if (!m || waiters.length === 0) return;
      buffer = buffer.slice(m[1]!.length);
      waiters.shift()!(m[1]!.trim());
    }
  };
  socket.on('data', (d) => { buffer += d.toString('latin1'); pump(); });
  const reply = () => new Promise<string>((resolve) => { waiters.push(resolve); pump(); });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  try {
    await script({ send: (line) => socket.write(`${line}\r\n`), sendRaw: (d) => socket.write(d), reply, closed });
  } finally {
    socket.destroy();
  }
}
