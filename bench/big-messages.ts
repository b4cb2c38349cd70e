import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createUsers, dbKind, freshEnv, round, rssMb, startServer } from './lib.js';
import { openSmtp, startTransaction, type SmtpSocket } from '../apps/server/test/smtp-socket.js';

// Issue 13's memory goal: BENCH_CONNECTIONS (200) connections each send one message of
// BENCH_MESSAGE_MB (20) MB at the same time. Reports the server's RSS peak; before
// streaming, every message was held whole (and copied) until stored.
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const MESSAGE_MB = Number(process.env.BENCH_MESSAGE_MB ?? 20);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 600) * 1000;

const step = (what: string) => console.error(`[big-messages ${new Date().toISOString().slice(11, 19)}] ${what}`);

/** One attachment of random bytes, base64 in 76-column lines: about MESSAGE_MB on the wire. Shared by every connection. */
function body(): Buffer {
  const b64 = randomBytes(Math.floor((MESSAGE_MB * 1024 * 1024 * 0.75 * 76) / 78)).toString('base64').replace(/.{76}/g, '$&\r\n');
  return Buffer.from(`MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="bb"\r\n\r\n--bb\r\nContent-Type: text/plain\r\n\r\nThe file.\r\n`
    + `--bb\r\nContent-Type: application/octet-stream; name="big.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64}\r\n--bb--\r\n`);
}

async function send(port: number, to: string, i: number, shared: Buffer, giveUp: AbortSignal): Promise<'ok' | string> {
  const c: SmtpSocket = await openSmtp(port);
  const stop = () => c.destroy();
  giveUp.addEventListener('abort', stop);
  try {
    await startTransaction(c, `sender${i}@outside.example`);
    c.send(`RCPT TO:<${to}>`);
    if (!(await c.reply()).startsWith('250')) return 'rcpt refused';
    c.send('DATA');
    if (!(await c.reply()).startsWith('354')) return 'data refused';
    await c.write(`From: <sender${i}@outside.example>\r\nTo: <${to}>\r\nSubject: big ${i}\r\nMessage-ID: <big-${i}@outside.example>\r\n`);
    for (let at = 0; at < shared.length; at += 256 * 1024) await c.write(shared.subarray(at, at + 256 * 1024));
    await c.write('.\r\n');
    const r = await c.reply();
    return r.startsWith('250') ? 'ok' : r.slice(0, 40);
  } catch (err) {
    return err instanceof Error ? err.message.slice(0, 40) : 'failed';
  } finally {
    giveUp.removeEventListener('abort', stop);
    c.destroy();
  }
}

const { env, cleanup } = await freshEnv('big');
const users = await createUsers(env, 'bench.test', 10);
// Every connection comes from 127.0.0.1: lift the per-IP caps (startServer's defaults, made explicit).
// One process, so its RSS is the whole server's.
const server = await startServer({ ...env, PROCESSES: '1', SMTP_MAX_CONNECTIONS_PER_IP: '10000', SMTP_CONNECTIONS_PER_MINUTE_PER_IP: '1000000' }, 18490, 12990);
step('server up');
try {
  await new Promise((r) => setTimeout(r, 1000));
  const rssIdle = rssMb(server.pid);
  const shared = body();
  let rssPeak = rssIdle;
  let tmpPeakMb = 0;
  const tmpDir = path.join(env.DATA_DIR!, 'blobs', 'tmp');
  const tmpBytes = async () => {
    let n = 0;
    for (const f of await fs.readdir(tmpDir).catch(() => [])) n += (await fs.stat(path.join(tmpDir, f)).catch(() => ({ size: 0 }))).size;
    return n;
  };
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, rssMb(server.pid)); }, 50);
  const diskSampler = setInterval(() => { void tmpBytes().then((n) => { tmpPeakMb = Math.max(tmpPeakMb, n / 1024 / 1024); }); }, 1000);
  const giveUp = new AbortController();
  setMaxListeners(CONNECTIONS + 10, giveUp.signal);
  const deadline = setTimeout(() => giveUp.abort(), DEADLINE_MS);
  step(`${CONNECTIONS} connections sending ${MESSAGE_MB} MB each`);
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => send(server.smtpPort, users[i % users.length]!, i, shared, giveUp.signal)));
  const seconds = (performance.now() - started) / 1000;
  clearTimeout(deadline);
  clearInterval(sampler);
  clearInterval(diskSampler);
  const failures = results.filter((r) => r !== 'ok');
  console.log(JSON.stringify({
    bench: 'big-messages', db: dbKind, connections: CONNECTIONS, message_mb: round(shared.length / 1024 / 1024),
    accepted: results.length - failures.length, failed: failures.length, first_failure: failures[0] ?? null, timed_out: giveUp.signal.aborted,
    seconds: round(seconds, 1), rss_idle_mb: round(rssIdle), rss_peak_mb: round(rssPeak), rss_end_mb: round(rssMb(server.pid)),
    staging_disk_peak_mb: round(tmpPeakMb), staging_left_after: (await fs.readdir(tmpDir)).length,
  }));
} finally {
  await server.stop();
  await cleanup();
}
