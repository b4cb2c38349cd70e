import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { createUsers, dbKind, freshEnv, percentile, round, rssMb, startServer } from './lib.js';

// New mail to Web Push: mail goes in over real SMTP and a loopback push service
// (playing FCM/Mozilla's part) times each encrypted, VAPID-signed POST.
// 1. Latency: one message at a time to a mailbox with one device, from the
//    sending server opening its SMTP transaction to the push service receiving the push.
// 2. Fan-out: 10 SMTP clients deliver to mailboxes with 5 devices each; pushes per second.
const LATENCY_MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200);
const FANOUT_MESSAGES = LATENCY_MESSAGES * 2;
const CLIENTS = 10;
const USERS = 10;
const DEVICES = 5;
const step = (what: string) => console.error(`[push ${new Date().toISOString().slice(11, 19)}] ${what}`);

let received: number[] = [];
let waiter: (() => void) | null = null;
const pushService = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    // Only well-formed pushes count: signed and encrypted as RFC 8292/8291 say.
    if (req.method === 'POST' && String(req.headers.authorization).startsWith('vapid t=') && req.headers['content-encoding'] === 'aes128gcm') {
      received.push(performance.now());
      waiter?.();
    }
    res.statusCode = 201;
    res.end();
  });
});
await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', () => resolve()));
const pushPort = (pushService.address() as AddressInfo).port;

const { env, cleanup } = await freshEnv('push');
const emails = await createUsers(env, 'bench.test', USERS + 1);
const server = await startServer({ ...env, PUSH_ALLOW_PRIVATE: '1' }, 18483, 12983);
const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: server.smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: CLIENTS, maxMessages: Infinity });
let result: Record<string, unknown> | undefined;
try {
  const base = `http://127.0.0.1:${server.httpPort}`;
  const post = async (path: string, body: Record<string, string>, token?: string) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST', body: new URLSearchParams(body),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    const json = await res.json() as { code: number; data: Record<string, string> };
    if (json.code !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json.data;
  };
  // A device: its own session and subscription keys, as a browser would make them.
  const addDevice = async (email: string, n: number) => {
    const token = (await post('/h5/login/h5', { email, password: 'bench-password' })).token!;
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    await post('/h5/setting/bind-push-id', {
      endpoint: `http://127.0.0.1:${pushPort}/push/${email}/${n}`,
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    }, token);
  };
  const mail = (to: string, i: number) => ({
    from: 'Sender <sender@outside.example>', to, subject: `push bench ${i}`, text: 'A short note.\n'.repeat(20),
  });

  step(`${LATENCY_MESSAGES} messages one at a time to a mailbox with 1 device`);
  await addDevice(emails[0]!, 0);
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_MESSAGES; i++) {
    received = [];
    const arrived = new Promise<void>((resolve) => { waiter = resolve; });
    const started = performance.now();
    await smtp.sendMail(mail(emails[0]!, i));
    await Promise.race([arrived, new Promise((_, reject) => setTimeout(() => reject(new Error(`no push for message ${i}`)), 10_000))]);
    latencies.push(received[0]! - started);
  }
  waiter = null;
  latencies.sort((a, b) => a - b);

  step(`${FANOUT_MESSAGES} messages, ${CLIENTS} SMTP clients, to ${USERS} mailboxes with ${DEVICES} devices each`);
  for (const email of emails.slice(1)) for (let d = 0; d < DEVICES; d++) await addDevice(email, d);
  received = [];
  const expected = FANOUT_MESSAGES * DEVICES;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < FANOUT_MESSAGES) {
      const i = next++;
      await smtp.sendMail(mail(emails[1 + (i % USERS)]!, i));
    }
  }));
  const smtpDone = performance.now();
  const deadline = Date.now() + 120_000;
  while (received.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const last = received.length > 0 ? Math.max(...received) : smtpDone;
  result = {
    bench: 'push', db: dbKind,
    latency_messages: LATENCY_MESSAGES, p50_ms: round(percentile(latencies, 50)), p99_ms: round(percentile(latencies, 99)),
    fanout_messages: FANOUT_MESSAGES, devices_per_mailbox: DEVICES, pushes_expected: expected, pushes_received: received.length,
    lost: expected - received.length,
    smtp_msgs_per_s: round(FANOUT_MESSAGES / ((smtpDone - t0) / 1000)),
    pushes_per_s: round(received.length / ((last - t0) / 1000)),
    pushes_after_last_250_ms: round(last - smtpDone),
    rss_mb: round(rssMb(server.pid)),
  };
} finally {
  smtp.close();
  await server.stop();
  await new Promise<void>((resolve) => pushService.close(() => resolve()));
  await cleanup();
}
if (result) console.log(JSON.stringify(result));
