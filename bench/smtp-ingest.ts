import os from 'node:os';
import nodemailer from 'nodemailer';
import { machineCpu, threadCpuMs, threadCpuPerMail, createUsers, dbKind, freshEnv, percentile, rng, round, startServer, treeCpuSeconds, treeRssMb, words } from './lib.js';

// 20 concurrent SMTP connections send 5,000 messages of 4–40 KB (10% with a 200 KB
// attachment) to 50 local users. Reports throughput, transaction latency and server RSS.
// SHAPE=blast: the peer comparison's mail instead (bench-peer/blast.py: 10 KB of random letters,
// one body per connection, unique subjects and Message-IDs, three mailboxes), to see per thread
// where bench:ingest-vs-peer's CPU goes.
const BLAST = process.env.SHAPE === 'blast';
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
// BENCH_WARMUP: mails sent the same way before the measured ones (default 0), so the per-thread
// figures can be read from a process whose JIT has settled, as bench:ingest-vs-peer measures.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 0);
const CONNECTIONS = 20;
const USERS = BLAST ? 3 : 50;

const step = (what: string) => console.error(`[smtp-ingest ${new Date().toISOString().slice(11, 19)}] ${what}`);
const { env, cleanup } = await freshEnv('ingest');
step('fresh database ready');
const users = await createUsers(env, 'bench.test', USERS);
step('users created');
const server = await startServer(env, 18480, 12980);
step('server up');
try {
  await new Promise((r) => setTimeout(r, 1000));
  // Primary and workers together (PROCESSES > 1 on PostgreSQL).
  const rssIdle = treeRssMb(server.pid);
  const rand = rng(42);
  const attachment = Buffer.alloc(200 * 1024, 7);
  const letters = 'abcdefghij klmnop\n';
  const blastBodies = Array.from({ length: CONNECTIONS }, () => Array.from({ length: 10_000 }, () => letters[Math.floor(rand() * letters.length)]).join(''));
  // Blast mail goes as blast.py's bytes (smtplib turns its bare LFs into CRLF), not through
  // nodemailer's composer: that would add MIME headers and quoted-printable for the long lines,
  // whose decoding the peer comparison never pays.
  const blastRaw = (i: number, to: string) =>
    `From: load@example.org\r\nTo: ${to}\r\nSubject: m${i}\r\nMessage-ID: <m${i}@example.org>\r\n\r\n${blastBodies[i % CONNECTIONS]!.replace(/\n/g, '\r\n')}\r\n`;
  const mails = Array.from({ length: WARMUP + MESSAGES }, (_, i) => BLAST ? {
    envelope: { from: 'load@example.org', to: [users[i % USERS]!] }, raw: blastRaw(i, users[i % USERS]!),
  } : {
    from: `sender${i % 7}@outside.example`,
    to: users[Math.floor(rand() * USERS)]!,
    subject: `bench message ${i}`,
    text: words(rand, 4 * 1024 + Math.floor(rand() * 36 * 1024)),
    attachments: rand() < 0.1 ? [{ filename: 'report.bin', content: attachment }] : [],
  });

  const warmup = mails.splice(0, WARMUP);
  let rssPeak = rssIdle;
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, treeRssMb(server.pid)); }, 100);
  step('messages generated, sending');
  const latencies: number[] = [];
  let failed = 0;
  // One persistent connection per worker, as a real sending MTA keeps them.
  const send = (batch: typeof mails, record: boolean) => {
    let next = 0;
    return Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      const t = nodemailer.createTransport({ host: '127.0.0.1', port: server.smtpPort, pool: true, maxConnections: 1, maxMessages: Infinity, ignoreTLS: true });
      while (next < batch.length) {
        const mail = batch[next++]!;
        const t0 = performance.now();
        try {
          await t.sendMail(mail);
          if (record) latencies.push(performance.now() - t0);
        } catch {
          if (record) failed += 1;
        }
      }
      t.close();
    }));
  };
  if (warmup.length > 0) {
    step(`warming up with ${warmup.length} messages`);
    await send(warmup, false);
    // The warm-up's deferred work (the search index, which starts after 300 ms without deliveries
    // and polls every 500 ms) finishes before the measured run: the machine is quiet for 1 s.
    for (let quiet = 0, t0 = Date.now(); quiet < 4 && Date.now() - t0 < 120_000;) {
      const m0 = machineCpu();
      await new Promise((r) => setTimeout(r, 250));
      const m1 = machineCpu();
      quiet = (m1.busy - m0.busy) / (m1.total - m0.total) < 0.1 ? quiet + 1 : 0;
    }
  }
  step(`measuring ${mails.length} messages`);
  const started = performance.now();
  const serverCpu0 = treeCpuSeconds(server.pid);
  const threads0 = threadCpuMs(server.pid);
  const clientCpu0 = process.cpuUsage();
  const machine0 = machineCpu();
  await send(mails, true);
  const seconds = (performance.now() - started) / 1000;
  const serverCpu = treeCpuSeconds(server.pid) - serverCpu0;
  // The server's busiest threads, in ms CPU per accepted mail: the main thread first (tid = pid), then
  // the others by CPU (on PGlite the database thread and the parse workers). One process only: with
  // PROCESSES > 1 the workers are other processes, and server_cpu_cores covers them.
  const threads = threadCpuPerMail(threads0, threadCpuMs(server.pid), server.pid, latencies.length);
  const clientCpu = process.cpuUsage(clientCpu0);
  const machine1 = machineCpu();
  clearInterval(sampler);
  latencies.sort((a, b) => a - b);
  console.log(JSON.stringify({
    bench: 'smtp-ingest', db: dbKind, messages: MESSAGES, connections: CONNECTIONS, accepted: latencies.length, failed,
    seconds: round(seconds, 2), msgs_per_s: round(latencies.length / seconds), p50_ms: round(percentile(latencies, 50)), p99_ms: round(percentile(latencies, 99)),
    rss_idle_mb: round(rssIdle), rss_peak_mb: round(rssPeak),
    // CPU used per wall second: 1.0 is one core busy. The machine has 2 cores, shared by client and server.
    server_cpu_cores: round(serverCpu / seconds, 2), client_cpu_cores: round((clientCpu.user + clientCpu.system) / 1e6 / seconds, 2), load_avg_1m: round(os.loadavg()[0]!, 2),
    thread_cpu_ms_per_mail: threads,
    machine_cpu_busy_pct: round((100 * (machine1.busy - machine0.busy)) / (machine1.total - machine0.total)), cores: os.availableParallelism(),
  }));
} finally {
  step('stopping the server');
  await server.stop();
  step('cleaning up');
  await cleanup();
  step('done');
}
