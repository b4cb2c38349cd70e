import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { root, treeCpuSeconds } from './lib.js';

// The peer (Postfix → LMTP → Dovecot maildir, set up by ../shared/bench-peer/baseline-postfix.sh)
// and the load client both systems are measured with (blast.py). Loopback only: port 2626.
export const PEER_TOOLS = path.resolve(root, '../shared/bench-peer');
export const PEER_PORT = 2626;
export const DOMAIN = 'demo.test';
export const LOCALS = ['alice', 'bob', 'admin'];
const SCRIPT = path.join(PEER_TOOLS, 'baseline-postfix.sh');
const MAILDIRS = LOCALS.map((u) => `/var/mail/vhosts/${DOMAIN}/${u}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pidFrom(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return pid > 0 && existsSync(`/proc/${pid}`) ? pid : null;
  } catch {
    return null;
  }
}
const postfixPid = () => pidFrom('/var/spool/postfix/pid/master.pid');
const dovecotPid = () => pidFrom('/run/dovecot/master.pid');

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port, timeout: 1000 }, () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
    s.once('timeout', () => { s.destroy(); resolve(false); });
  });
}

export async function peerRunning(): Promise<boolean> {
  return postfixPid() !== null && dovecotPid() !== null && (await answers(PEER_PORT));
}

/** Installs (apt-get), configures and starts the peer unless it already runs. The script's chatter goes to stderr. */
export async function ensurePeer(): Promise<void> {
  if (await peerRunning()) return;
  const r = spawnSync('bash', [SCRIPT, 'setup'], { stdio: ['ignore', process.stderr, process.stderr], timeout: 15 * 60_000 });
  if (r.status !== 0 || !(await peerRunning())) throw new Error(`baseline-postfix.sh setup failed (status ${r.status})`);
}

export function stopPeer(): void {
  spawnSync('bash', [SCRIPT, 'stop'], { stdio: ['ignore', process.stderr, process.stderr], timeout: 60_000 });
}

/** CPU seconds of Postfix's and Dovecot's process trees (master, smtpd, cleanup, qmgr, lmtp, …). */
export function peerCpuSeconds(): number {
  return treeCpuSeconds(...[postfixPid(), dovecotPid()].filter((p): p is number => p !== null));
}

export async function waitQueueEmpty(limitMs = 300_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!/Mail queue is empty/.test(spawnSync('mailq', { encoding: 'utf8' }).stdout ?? '')) {
    if (Date.now() > deadline) throw new Error('the peer\'s queue did not drain');
    await sleep(500);
  }
}

export async function clearMaildirs(): Promise<void> {
  for (const d of MAILDIRS) await fs.rm(d, { recursive: true, force: true });
}

/** Delivered messages: files in the three maildirs' new/. */
export function deliveredCount(): number {
  let n = 0;
  for (const d of MAILDIRS) {
    try { n += readdirSync(path.join(d, 'new')).length; } catch { /* not created yet */ }
  }
  return n;
}

export interface BlastResult { sent: number; secs: number; msgs_per_s: number; p99_ms: number | null; worker_errors: number; endedAt: number }

/**
 * Runs blast.py: `connections` processes, each one SMTP connection sending `perConnection`
 * messages of `size` bytes round-robin to alice/bob/admin, every acknowledged id written to
 * `${ackBase}.<i>`. `endedAt` (performance.now()) is when the client exited: its last 250 is in.
 */
export function blast(port: number, connections: number, perConnection: number, size: number, ackBase: string, deadlineS = 600): Promise<BlastResult> {
  const rcpts = LOCALS.map((u) => `${u}@${DOMAIN}`).join(',');
  const child = spawn('python3', [path.join(PEER_TOOLS, 'blast.py'), String(connections), String(perConnection), String(size), String(deadlineS), rcpts, ackBase], {
    env: { ...process.env, MW_SMTP_PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let endedAt = 0;
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.once('exit', () => { endedAt = performance.now(); });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`blast.py exited with ${code}`));
      resolve({ ...(JSON.parse(out.trim().split('\n').pop()!) as Omit<BlastResult, 'endedAt'>), endedAt });
    });
  });
}

/** The acknowledged messages as "recipient subject" lines, and removes the ack files. */
export async function takeAcks(ackBase: string): Promise<string[]> {
  const dir = path.dirname(ackBase);
  const lines: string[] = [];
  for (const f of await fs.readdir(dir)) {
    if (!f.startsWith(`${path.basename(ackBase)}.`)) continue;
    const p = path.join(dir, f);
    lines.push(...(await fs.readFile(p, 'utf8')).split('\n').filter(Boolean));
    await fs.rm(p);
  }
  return lines;
}
