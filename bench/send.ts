import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../apps/server/src/config.js';
import { openServices } from '../apps/server/src/runtime.js';
import { createUsers, dbKind, freshEnv, percentile, round, rssMb, startServer } from './lib.js';

// 2,000 outside messages through /h5/write/send, the durable queue and SMTP to a
// stand-in MX on loopback: messages per second, and p50/p99 from the send call to
// the remote 250. Then one message to 200 company mailboxes: time, and blobs stored.
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const CLIENTS = 10;
const LOCAL_RECIPIENTS = 200;
const step = (what: string) => console.error(`[send ${new Date().toISOString().slice(11, 19)}] ${what}`);

const sentAt = new Map<string, number>();
const latencies: number[] = [];
let lastAccept = 0;
const mx = new SMTPServer({
  authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false, maxClients: 200,
  onData(stream, _session, cb) {
    let head = '';
    stream.on('data', (c: Buffer) => { if (head.length < 4096) head += c.toString('latin1'); });
    stream.on('end', () => {
      const subject = /^Subject: (bench-\d+)/m.exec(head)?.[1];
      const t = subject ? sentAt.get(subject) : undefined;
      lastAccept = performance.now();
      if (t !== undefined) latencies.push(lastAccept - t);
      cb(null, 'queued');
    });
  },
});
await new Promise<void>((resolve) => mx.listen(0, '127.0.0.1', () => resolve()));
const mxAddr = mx.server.address();
const mxPort = typeof mxAddr === 'object' && mxAddr ? mxAddr.port : 0;

const { env, cleanup } = await freshEnv('send');
const emails = await createUsers(env, 'bench.test', LOCAL_RECIPIENTS + 1);
const server = await startServer({ ...env, SMTP_RELAY: `smtp://127.0.0.1:${mxPort}`, DELIVERY_CONCURRENCY: '20' }, 18482, 12982);
let result: Record<string, unknown> | undefined;
try {
  const base = `http://127.0.0.1:${server.httpPort}`;
  const post = async (path: string, body: Record<string, string>, token?: string) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST', body: new URLSearchParams(body),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    const json = await res.json() as { code: number; data: Record<string, string>; error?: unknown };
    if (json.code !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json.data;
  };
  const token = (await post('/h5/login/h5', { email: emails[0]!, password: 'bench-password' })).token!;
  const body = 'Hello,\n\nthe quarterly numbers are attached in the shared folder.\n\n'.repeat(20);

  step(`sending ${MESSAGES} outside messages with ${CLIENTS} clients`);
  let next = 0;
  const firstSend = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < MESSAGES) {
      const i = next++;
      const subject = `bench-${i}`;
      sentAt.set(subject, performance.now());
      await post('/h5/write/send', { to: `rcpt${i}@outside.example`, subject, text: body }, token);
    }
  }));
  const acceptedAll = performance.now();
  const deadline = Date.now() + 600_000;
  while (latencies.length < MESSAGES) {
    if (Date.now() > deadline) throw new Error(`only ${latencies.length} of ${MESSAGES} reached the MX`);
    await new Promise((r) => setTimeout(r, 100));
  }
  latencies.sort((a, b) => a - b);
  const secs = (lastAccept - firstSend) / 1000;
  step(`API accepted all in ${round((acceptedAll - firstSend) / 1000)} s; all at the MX after ${round(secs)} s`);

  step(`one message to ${LOCAL_RECIPIENTS} company mailboxes`);
  const countBlobs = async () => {
    const { services, close } = await openServices({ ...loadConfig(env), parseWorkers: 0 });
    try {
      const n = await services.db.selectFrom('blobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(n.n);
    } finally { await close(); }
  };
  // PGlite allows one process at a time, so on it the count is taken around a restart.
  const pglite = dbKind === 'pglite';
  let blobsBefore = 0;
  if (!pglite) blobsBefore = await countBlobs();
  const t0 = performance.now();
  const sent = await post('/h5/write/send', { to: emails.slice(1).join(','), subject: 'All hands', text: body }, token);
  const localMs = performance.now() - t0;
  const rss = rssMb(server.pid);
  await server.stop();
  const { services, close } = await openServices({ ...loadConfig(env), parseWorkers: 0 });
  let copies = 0;
  let blobsForIt = 0;
  try {
    const row = await services.db.selectFrom('messages').select(['blob_hash', 'content_id']).where('id', '=', Number(sent.id)).executeTakeFirstOrThrow();
    copies = Number((await services.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('content_id', '=', row.content_id).executeTakeFirstOrThrow()).n);
    blobsForIt = Number((await services.db.selectFrom('messages').select((eb) => eb.fn.count<number>('blob_hash').distinct().as('n')).where('content_id', '=', row.content_id).executeTakeFirstOrThrow()).n);
    if (!pglite) blobsBefore = Number((await services.db.selectFrom('blobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n) - blobsBefore;
  } finally { await close(); }

  result = {
    bench: 'send', db: dbKind, messages: MESSAGES, clients: CLIENTS,
    msgs_per_s: round(MESSAGES / secs), api_accept_per_s: round(MESSAGES / ((acceptedAll - firstSend) / 1000)),
    p50_ms: round(percentile(latencies, 50)), p99_ms: round(percentile(latencies, 99)),
    local_recipients: LOCAL_RECIPIENTS, local_send_ms: round(localMs), local_copies: copies - 1, local_blobs: blobsForIt,
    ...(pglite ? {} : { blobs_added: blobsBefore }),
    rss_mb: round(rss),
  };
} finally {
  await server.stop();
  await new Promise<void>((resolve) => mx.close(() => resolve()));
  await cleanup();
}
if (result) console.log(JSON.stringify(result));
