import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../apps/server/src/features/account/password.js';
import { defaultProcesses, loadConfig } from '../apps/server/src/config.js';
import { openServices } from '../apps/server/src/runtime.js';
import { cpuProbeMicros, cpuSeconds, memProbeNs, freshEnv, fsyncMicros, machineCpu, round, startServer, threadCpuMs, threadCpuPerMail, treeCpuSeconds } from './lib.js';
import {
  blast, clearMaildirs, deliveredCount, DOMAIN, ensurePeer, LOCALS, peerCpuSeconds, peerRunning,
  PEER_PORT, stopPeer, takeAcks, waitQueueEmpty,
} from './peer.js';

// Issue 13, "The peer, on your machine": the same load client (blast.py, 20 connections, 10 KB)
// against Postfix+Dovecot and against a fresh Mailwing on PostgreSQL and on PGlite, interleaved
// per round, so the ratios compare systems under the same machine weather.
// End-to-end: the peer queues first, so it ends when every message is a file in a maildir;
// Mailwing answers 250 only once the mail is stored, so it ends when the client has its last 250.
// Env: BENCH_ROUNDS (3), BENCH_MESSAGES (3000, split over 20 connections), BENCH_IDLE_S (5),
// BENCH_WARMUP (3000, before each measured run; see settle), DATABASE_URL (the PostgreSQL server to create databases on), and anything the server reads
// (PROCESSES on PostgreSQL, PARSE_WORKERS, …) passes through. BENCH_SYSTEMS (e.g. "peer,pglite")
// runs only those, for a quicker look while working; the ratios need the peer.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 20;
const PER_CONNECTION = Math.max(1, Math.round(Number(process.env.BENCH_MESSAGES ?? 3000) / CONNECTIONS));
const MESSAGES = CONNECTIONS * PER_CONNECTION;
const SIZE = 10_000;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000);
const IDLE_MS = Number(process.env.BENCH_IDLE_S ?? 5) * 1000;
const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const HTTP_PORT = 18490;
const SMTP_PORT = 12990;
const PEER_DRAIN_LIMIT_MS = 300_000;

type Kind = 'peer' | 'postgres' | 'pglite';
interface Run { threads?: string; cpu_probe_us: number; mem_probe_ns: number; msgs_per_s: number; accept_msgs_per_s: number; p99_ms: number | null; sent: number; lost: number; cpu_s: number; db_cpu_s: number; machine_cpu_s: number; busy_pct: number; after_s: number; after_cpu_s: number }
/** CPU seconds per process or tree, keyed by name; "pg:<pid>" keys are PostgreSQL backends. */
type CpuReading = Map<string, number>;

const step = (what: string) => console.error(`[ingest-vs-peer ${new Date().toISOString().slice(11, 19)}] ${what}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function postgresAnswers(): Promise<boolean> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/**
 * Before every measured run: a warm-up of WARMUP messages over the same 20 connections, then the
 * disk flushed and the machine left idle. A mail server runs for months; what an operator gets
 * is its steady state. Mailwing runs on a JIT: in a fresh process V8's background threads spent
 * ~0.7 ms per mail compiling hot code over the first 3,000 mails (a third of that by 9,000), time
 * the peer's compiled C never spends (issue 13, 29 Nov). So both systems take the same warm-up,
 * and Mailwing's deferred work from it (the search index) is let finish first.
 */
async function settle(port: number, ackBase: string, serverCpu?: () => Promise<CpuReading>): Promise<void> {
  const connections = Math.max(1, Math.min(CONNECTIONS, WARMUP));
  await blast(port, connections, Math.max(1, Math.round(WARMUP / connections)), SIZE, `${ackBase}-warm`);
  await takeAcks(`${ackBase}-warm`);
  if (port === PEER_PORT) {
    await waitQueueEmpty();
    await clearMaildirs();
  }
  if (serverCpu) await untilQuiet(serverCpu);
  spawnSync('sync');
  await sleep(IDLE_MS);
}

async function measure(port: number, ackBase: string, serverCpu: () => Promise<CpuReading>, delivered?: () => number) {
  // After settle's idle pause, right before the load: the machine's own speed for this run.
  const probeUs = cpuProbeMicros();
  const memNs = memProbeNs();
  const m0 = machineCpu();
  const c0 = await serverCpu();
  const t0 = performance.now();
  let done: Awaited<ReturnType<typeof blast>> | null = null;
  let failed: unknown = null;
  const running = blast(port, CONNECTIONS, PER_CONNECTION, SIZE, ackBase).then((r) => { done = r; }, (e: unknown) => { failed = e; });
  let end: number;
  if (delivered) {
    // As the peer's README measures it: poll the maildirs every 50 ms until all sent mail is there.
    for (;;) {
      await sleep(50);
      if (failed) throw failed;
      const b = done as Awaited<ReturnType<typeof blast>> | null;
      if (b && delivered() >= b.sent) { end = performance.now(); break; }
      if (performance.now() - t0 > PEER_DRAIN_LIMIT_MS) throw new Error('the peer did not deliver everything in time');
    }
  } else {
    await running;
    if (failed) throw failed;
    end = done!.endedAt;
  }
  const c1 = await serverCpu();
  const m1 = machineCpu();
  // A backend that connected during the run counts from zero.
  const used = (key: string) => c1.get(key)! - (c0.get(key) ?? 0);
  const keys = [...c1.keys()];
  const cpu = keys.reduce((a, k) => a + used(k), 0);
  const dbCpu = keys.filter((k) => k.startsWith('pg:')).reduce((a, k) => a + used(k), 0);
  await running;
  const b = done!;
  const secs = (end - t0) / 1000;
  return {
    b, secs, cpu, dbCpu, probeUs, memNs,
    machineCpuS: (m1.busy - m0.busy) / 100,
    busyPct: (100 * (m1.busy - m0.busy)) / Math.max(1, m1.total - m0.total),
  };
}

async function peerRun(ackBase: string): Promise<Run> {
  await settle(PEER_PORT, ackBase);
  const m = await measure(PEER_PORT, ackBase, async () => new Map([['peer', peerCpuSeconds()]]), deliveredCount);
  const acked = (await takeAcks(ackBase)).length;
  const files = deliveredCount();
  return summarize(m, Math.max(0, acked - files));
}

async function createMailboxes(env: NodeJS.ProcessEnv): Promise<void> {
  const { services, close } = await openServices(loadConfig(env));
  try {
    const c = await services.companies.createCompany({ name: 'Bench Co', domain: DOMAIN });
    const hash = await hashPassword('bench-password');
    for (const u of LOCALS) await services.companies.createUser(c, { email: `${u}@${DOMAIN}`, password: '', name: u }, hash);
  } finally {
    await close();
  }
}

/** Acknowledged messages ("recipient subject") with no row in that recipient's mailbox. */
async function countLost(env: NodeJS.ProcessEnv, acked: string[]): Promise<{ stored: number; lost: number }> {
  const { db, close } = await openServices(loadConfig(env));
  try {
    const rows = await db.db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id').innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.email', 'c.subject']).where('c.subject', 'like', 'blast-%').execute();
    const stored = new Set(rows.map((r) => `${r.email} ${r.subject}`));
    return { stored: stored.size, lost: acked.filter((a) => !stored.has(a)).length };
  } finally {
    await close();
  }
}

/**
 * Mailwing's CPU: its process tree (every process and thread it starts) and, on PostgreSQL, the
 * backends serving its database, since the peer's figure also holds all of its own work.
 */
async function mailwingCpu(pid: number, env: NodeJS.ProcessEnv): Promise<CpuReading> {
  const reading: CpuReading = new Map([['mailwing', treeCpuSeconds(pid)]]);
  if (!env.DATABASE_URL) return reading;
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [new URL(env.DATABASE_URL).pathname.slice(1)]);
    for (const r of rows) {
      try { reading.set(`pg:${r.pid}`, cpuSeconds(r.pid)); } catch { /* the backend just ended */ }
    }
  } finally {
    await c.end();
  }
  return reading;
}

async function mailwingRun(kind: 'postgres' | 'pglite', ackBase: string): Promise<Run> {
  const { env, cleanup } = await freshEnv(`vs-peer-${kind}`, kind === 'postgres' ? PG_URL : '');
  // PGlite can be opened by one process only: PROCESSES is for the PostgreSQL runs.
  if (kind === 'pglite') delete env.PROCESSES;
  try {
    await createMailboxes(env);
    const server = await startServer(env, HTTP_PORT, SMTP_PORT);
    let m: Awaited<ReturnType<typeof measure>>;
    let after = { secs: 0, cpu: 0 };
    let threads = '';
    try {
      await settle(SMTP_PORT, ackBase, () => mailwingCpu(server.pid, env));
      const t0 = threadCpuMs(server.pid);
      m = await measure(SMTP_PORT, ackBase, () => mailwingCpu(server.pid, env));
      threads = threadCpuPerMail(t0, threadCpuMs(server.pid), server.pid, m.b.sent);
      after = await untilQuiet(() => mailwingCpu(server.pid, env));
    } finally {
      await server.stop();
    }
    const acked = await takeAcks(ackBase);
    const { stored, lost } = await countLost(env, acked);
    step(`${kind}: ${acked.length} acknowledged, ${stored} stored (warm-up included), ${lost} lost`);
    return { ...summarize(m, lost), after_s: round(after.secs, 2), after_cpu_s: round(after.cpu, 2), threads };
  } finally {
    await cleanup();
  }
}

/**
 * Work Mailwing does after the last 250 (the search index catching up, migrations 030 and 037)
 * is work the mail cost: it runs until the process tree uses under a tenth of a core for 1 s.
 * Not less: the indexer starts only after 300 ms without deliveries and polls every 500 ms, so a
 * shorter quiet spell could end the wait before the catching-up began (it then ran into the
 * next round, and that round's `after_s` came out near 0).
 */
async function untilQuiet(serverCpu: () => Promise<CpuReading>): Promise<{ secs: number; cpu: number }> {
  const total = async () => [...(await serverCpu()).values()].reduce((a, b) => a + b, 0);
  const t0 = performance.now();
  const c0 = await total();
  let last = c0;
  let quiet = 0;
  while (quiet < 4 && performance.now() - t0 < 120_000) {
    await sleep(250);
    const c = await total();
    quiet = c - last < 0.025 ? quiet + 1 : 0;
    last = c;
  }
  return { secs: Math.max(0, (performance.now() - t0) / 1000 - 1), cpu: last - c0 };
}

function summarize(m: Awaited<ReturnType<typeof measure>>, lost: number): Run {
  return {
    after_s: 0, after_cpu_s: 0, cpu_probe_us: m.probeUs, mem_probe_ns: m.memNs,
    msgs_per_s: round(m.b.sent / m.secs), accept_msgs_per_s: m.b.msgs_per_s, p99_ms: m.b.p99_ms, sent: m.b.sent, lost,
    cpu_s: round(m.cpu, 2), db_cpu_s: round(m.dbCpu, 2), machine_cpu_s: round(m.machineCpuS, 2), busy_pct: round(m.busyPct),
  };
}

/** The whole machine's CPU per mail in a run, ms (the load client and anyone else included). */
const machineMsPerMail = (r: Run) => (1000 * r.machine_cpu_s) / r.sent;

function report(runs: Run[]) {
  if (runs.length === 0) return null;
  const sent = runs.reduce((a, r) => a + r.sent, 0);
  return {
    msgs_per_s: runs.map((r) => r.msgs_per_s), median: round(median(runs.map((r) => r.msgs_per_s))),
    accept_msgs_per_s: runs.map((r) => r.accept_msgs_per_s), p99_ms: runs.map((r) => r.p99_ms),
    // The system's own processes; the machine figure also holds the load client and anyone else.
    cpu_ms_per_msg: round(median(runs.map((r) => (1000 * r.cpu_s) / r.sent)), 2),
    // Mailwing's deferred work after the last 250 (the search index), and the rate counting it in.
    after_s: runs.map((r) => r.after_s),
    cpu_ms_per_msg_with_after: round(median(runs.map((r) => (1000 * (r.cpu_s + r.after_cpu_s)) / r.sent)), 2),
    msgs_per_s_with_after: round(median(runs.map((r) => r.sent / (r.sent / r.msgs_per_s + r.after_s)))),
    // On PostgreSQL, the part of cpu_ms_per_msg spent in the database's backends.
    db_cpu_ms_per_msg: round(median(runs.map((r) => (1000 * r.db_cpu_s) / r.sent)), 2),
    machine_cpu_ms_per_msg: round(median(runs.map(machineMsPerMail)), 2),
    busy_pct: runs.map((r) => r.busy_pct),
    // cpuProbeMicros before each run: a higher figure is a slower machine for that run.
    cpu_probe_us: runs.map((r) => r.cpu_probe_us),
    // memProbeNs before each run: a higher figure is slower memory for that run.
    mem_probe_ns: runs.map((r) => r.mem_probe_ns),
    ...(runs[0]!.threads !== undefined ? { thread_cpu_ms_per_msg: runs.map((r) => r.threads) } : {}),
    sent, lost: runs.reduce((a, r) => a + r.lost, 0),
  };
}

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-vs-peer-'));
const peerWasRunning = await peerRunning();
const results: Record<Kind, Run[]> = { peer: [], postgres: [], pglite: [] };
// Per round: each system's rate over the peer's, and its two factors (the rate is the cores kept busy over the
// CPU a mail costs): the peer's machine CPU per mail over the system's ("_cpu") and its busy share over the peer's ("_busy").
type RoundFigures = Partial<Record<'fsync_us' | `${'postgres' | 'pglite'}${'' | '_cpu' | '_busy'}`, number>>;
const perRound: RoundFigures[] = [];
try {
  step(peerWasRunning ? 'the peer is running' : 'setting up and starting the peer (baseline-postfix.sh setup)');
  await ensurePeer();
  const withPg = await postgresAnswers();
  if (!withPg) step(`no PostgreSQL at ${new URL(PG_URL).host}: Mailwing on PGlite only`);
  const only = process.env.BENCH_SYSTEMS?.split(',');
  const kinds = (['peer', ...(withPg ? ['postgres' as const] : []), 'pglite'] as Kind[]).filter((k) => !only || only.includes(k));
  for (let r = 1; r <= ROUNDS; r++) {
    // The disk's flush latency moves the ratio more than anything of ours (fsyncMicros): each round says what it was.
    const ratios: RoundFigures = { fsync_us: fsyncMicros(tmp) };
    step(`round ${r}/${ROUNDS}: an 8 KB write and fdatasync take ${ratios.fsync_us} µs (median of 200)`);
    for (const kind of kinds) {
      step(`round ${r}/${ROUNDS}: ${kind}, ${MESSAGES} messages`);
      const ackBase = path.join(tmp, `acked-${kind}-${r}`);
      const run = kind === 'peer' ? await peerRun(ackBase) : await mailwingRun(kind, ackBase);
      results[kind].push(run);
      step(`round ${r}/${ROUNDS}: ${kind} ${JSON.stringify(run)}`);
      const lastPeer = results.peer.at(-1);
      if (kind !== 'peer' && lastPeer) {
        ratios[kind] = round(run.msgs_per_s / lastPeer.msgs_per_s, 2);
        ratios[`${kind}_cpu`] = round(machineMsPerMail(lastPeer) / machineMsPerMail(run), 2);
        ratios[`${kind}_busy`] = round(run.busy_pct / lastPeer.busy_pct, 2);
      }
    }
    perRound.push(ratios);
  }
} finally {
  if (!peerWasRunning) {
    step('stopping the peer (the bench started it)');
    stopPeer();
  }
  await fs.rm(tmp, { recursive: true, force: true });
}

const peer = report(results.peer);
const postgres = report(results.postgres);
const pglite = report(results.pglite);
console.log(JSON.stringify({
  bench: 'ingest-vs-peer', rounds: ROUNDS, messages: MESSAGES, warmup: WARMUP, connections: CONNECTIONS, size_bytes: SIZE,
  processes: { postgres: Number(process.env.PROCESSES ?? defaultProcesses(PG_URL, os.availableParallelism())), pglite: 1 }, cores: os.availableParallelism(),
  peer, postgres, pglite,
  ratio_postgres: peer && postgres && round(postgres.median / peer.median, 2),
  ratio_pglite: peer && pglite && round(pglite.median / peer.median, 2),
  ratios_per_round: perRound,
}));
