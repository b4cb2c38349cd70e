import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, fdatasyncSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashPassword } from '../apps/server/src/features/account/password.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openServices } from '../apps/server/src/runtime.js';
import { startDnsStandIn } from '../apps/server/test/dns-standin.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const dbKind = process.env.DATABASE_URL ? 'postgres' : 'pglite';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
export const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** CPU seconds (user + system) a process has used, from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The median time of `n` runs of `run`, in ns: the probes below. */
function medianNs(n: number, run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - t0));
  }
  return percentile(times.sort((a, b) => a - b), 50);
}

/**
 * The disk's flush latency now, in µs: the median of 200 rewrites of one 8 KB block, each
 * followed by fdatasync, in `dir`. The peer syncs several files for every mail and Mailwing
 * one WAL per batch, so this "weather" moves their ratio (issue 13, 1 Dec: 200 µs in a morning
 * when the peer took 11.6 ms of machine CPU per mail, 55 µs in an afternoon when it took 5.0).
 */
export function fsyncMicros(dir: string): number {
  const file = path.join(dir, 'fsync-probe');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(8192, 1);
  try {
    return Math.round(medianNs(200, () => { writeSync(fd, block, 0, block.length, 0); fdatasyncSync(fd); }) / 1000);
  } finally {
    closeSync(fd);
    unlinkSync(file);
  }
}

/**
 * How fast one core of the machine is now, in µs: the median of 31 SHA-256 digests of the same
 * 1 MB, on an idle machine. Fixed native work, so it moves only with the machine (the VM's host,
 * its other guests): on 2 Dec a slow round was every thread of ours dearer by the same factor
 * (docs/architecture.md), and this tells a slow machine from more work. No hardware counters here.
 */
export function cpuProbeMicros(): number {
  const block = Buffer.alloc(1 << 20, 7);
  return Math.round(medianNs(31, () => createHash('sha256').update(block).digest()) / 1000);
}

let chain: Uint32Array | null = null;
// Where the last chase ended, and the next starts: kept, so no chase is optimised away.
let chaseEnd = 0;

/**
 * How long one read from memory takes now, in ns: a chase through a random cycle over 64 MB,
 * far more than the cache, so each step waits for memory. cpuProbeMicros stays in the cache;
 * this one moves with contention for memory and the shared cache (3 Dec: a slow run was every
 * thread dearer, the peer's too, while the core's speed stayed). The median of 3 chases of 2^20 steps.
 */
export function memProbeNs(): number {
  if (!chain) {
    // Sattolo's shuffle: one cycle through every slot, in an order the prefetcher cannot guess.
    const next = rng(13);
    chain = new Uint32Array(1 << 24);
    for (let i = 0; i < chain.length; i++) chain[i] = i;
    for (let i = chain.length - 1; i > 0; i--) {
      const j = Math.floor(next() * i);
      const t = chain[i]!;
      chain[i] = chain[j]!;
      chain[j] = t;
    }
  }
  // A const: the closure keeps its narrowed type, where the module's `let` would not.
  const steps = chain;
  const ns = medianNs(3, () => {
    let at = chaseEnd;
    for (let k = 0; k < 1 << 20; k++) at = steps[at]!;
    chaseEnd = at;
  });
  return Math.round(ns / (1 << 20));
}

/** Busy and total jiffies of the whole machine (all cores), from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  const [, ...v] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = v.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * CPU seconds used by a process tree: every live descendant (threads are inside each process's
 * figure) plus the children each one has already reaped, so a worker process that exits
 * mid-run still counts. Take the difference of two readings.
 */
/**
 * CPU time of each thread of a process, in ms (schedstat: nanoseconds), keyed by thread id,
 * with its name: tells the main thread (tid = pid) from the database and parser threads.
 */
export function threadCpuMs(pid: number): Map<number, { comm: string; ms: number }> {
  const out = new Map<number, { comm: string; ms: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const dir = `/proc/${pid}/task/${tid}`;
      out.set(Number(tid), { comm: readFileSync(`${dir}/comm`, 'utf8').trim(), ms: Number(readFileSync(`${dir}/schedstat`, 'utf8').split(' ')[0]) / 1e6 });
    } catch { /* ended between the listing and the read */ }
  }
  return out;
}

/**
 * Each thread's CPU per mail between two `threadCpuMs` readings, as "name:ms" joined by spaces:
 * the main thread first as "main", then the others busiest first, named by their order of
 * creation ("+n": n thread ids after the main thread), since Node names its threads alike.
 * Only the process read: with PROCESSES > 1 the workers are processes of their own.
 */
export function threadCpuPerMail(before: Map<number, { ms: number }>, after: Map<number, { ms: number }>, pid: number, mails: number): string {
  return [...after].map(([tid, t]) => ({ tid, ms: (t.ms - (before.get(tid)?.ms ?? 0)) / Math.max(1, mails) }))
    .filter((t) => t.tid === pid || t.ms >= 0.01)
    .sort((a, b) => (a.tid === pid ? -1 : b.tid === pid ? 1 : b.ms - a.ms))
    .map((t) => `${t.tid === pid ? 'main' : `+${t.tid - pid}`}:${round(t.ms, 2)}`).join(' ');
}

export function treeCpuSeconds(...rootPids: number[]): number {
  const procs = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      procs.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch { /* exited between the listing and the read */ }
  }
  const inTree = new Set(rootPids.filter((p) => procs.has(p)));
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of procs) if (!inTree.has(pid) && inTree.has(p.ppid)) { inTree.add(pid); grew = true; }
  }
  let ticks = 0;
  for (const pid of inTree) ticks += procs.get(pid)!.ticks;
  return ticks / 100;
}

export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of a process and all its descendants (the primary and its workers). */
export function treeRssMb(rootPid: number): number {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      parent.set(Number(name), Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]));
    } catch { /* exited meanwhile */ }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) if (!tree.has(pid) && tree.has(ppid)) { tree.add(pid); grew = true; }
  }
  return [...tree].reduce((sum, pid) => sum + rssMb(pid), 0);
}

/**
 * A fresh data dir and, on PostgreSQL, a fresh database, so each run starts empty. `databaseUrl`
 * (default DATABASE_URL) names the server to create it on; without one the run is on PGlite.
 */
export async function freshEnv(name: string, databaseUrl = process.env.DATABASE_URL): Promise<{ env: NodeJS.ProcessEnv; cleanup: () => Promise<void> }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `mw-bench-${name}-`));
  // Inbound sender authentication asks DNS for every mail: a loopback server (every name
  // NXDOMAIN) keeps the figures off the machine's resolver and its network.
  const dns = await startDnsStandIn({});
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', DNS_SERVERS: dns.server };
  let drop = async () => {};
  delete env.DATABASE_URL;
  if (databaseUrl) {
    const pg = (await import('pg')).default;
    const db = `mw_bench_${name.replace(/\W/g, '_')}_${process.pid}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${db}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${db}`;
    env.DATABASE_URL = url.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await c.end();
    };
  }
  return { env, cleanup: async () => { await drop(); await dns.close(); await fs.rm(dataDir, { recursive: true, force: true }); } };
}

/** Creates a company with `n` users (user0…) directly through the services, before the server starts. */
export async function createUsers(env: NodeJS.ProcessEnv, domain: string, n: number): Promise<string[]> {
  const { services, close } = await openServices(loadConfig(env));
  try {
    const c = await services.companies.createCompany({ name: 'Bench Co', domain });
    const hash = await hashPassword('bench-password');
    const emails: string[] = [];
    for (let i = 0; i < n; i++) {
      const email = `user${i}@${domain}`;
      await services.companies.createUser(c, { email, password: '', name: `User ${i}` }, hash);
      emails.push(email);
    }
    return emails;
  } finally {
    await close();
  }
}

export interface ServerProcess {
  child: ChildProcess; pid: number; httpPort: number; smtpPort: number;
  stop(): Promise<void>;
  /** kill -9 of the whole process group: the primary and every worker, as a power cut would. */
  crash(): void;
}

export async function startServer(env: NodeJS.ProcessEnv, httpPort: number, smtpPort: number): Promise<ServerProcess> {
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // Node and V8 flags for the server alone, to compare them (some, like --single-threaded-gc, NODE_OPTIONS refuses).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...prof, ...nodeArgs, '--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    // The load clients open 20 connections and thousands of sessions from 127.0.0.1: far above the
    // per-IP caps meant for strangers on the internet, so a bench raises them (env may still override).
    cwd: root,
    env: { SMTP_MAX_CONNECTIONS_PER_IP: '10000', SMTP_CONNECTIONS_PER_MINUTE_PER_IP: '1000000', ...env, PORT: String(httpPort), SMTP_PORT: String(smtpPort), WORKERS: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
    // Its own process group, so a crash test can kill the primary and every worker at once.
    detached: true,
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`http://127.0.0.1:${httpPort}/h5/uniapp/version`);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child, pid: child.pid!, httpPort, smtpPort,
    stop: () => new Promise<void>((resolve) => { if (child.exitCode !== null) return resolve(); child.once('exit', () => resolve()); child.kill('SIGTERM'); }),
    crash: () => process.kill(-child.pid!, 'SIGKILL'),
  };
}

/** A deterministic pseudo-random generator, so runs are comparable. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = 'mail report quarter budget meeting review project customer invoice schedule update design release server network office travel contract team plan'.split(' ');
export function words(rand: () => number, bytes: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = WORDS[Math.floor(rand() * WORDS.length)]!;
    out.push(w);
    n += w.length + 1;
    if (out.length % 14 === 0) out.push('\n');
  }
  return out.join(' ');
}
