import { readdirSync, readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config.js';
import { PGliteThread } from '../apps/server/src/db/pglite-thread.js';
import { createLogger, startRuntime } from '../apps/server/src/runtime.js';
import { createUsers, dbKind, freshEnv, rng, round } from './lib.js';

// Issue 13: where the database's CPU goes per delivered mail. The server runs in this
// process (so the embedded database's thread can be found), mail comes in over SMTP as
// in bench:smtp-ingest, and the figures are the database's own CPU: the PostgreSQL
// backends of the bench's database, or PGlite's thread. A share of the mail replies to
// earlier mail (headers or subject), and mailboxes start with PREFILL old mails, so the
// threader's lookups and the indexes are the size of a used mailbox, not of an empty one.
// Then the search indexer's later work is measured on its own.
//
//   BENCH_MESSAGES=1000 PREFILL=50000 [DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres] npm run db-cpu -w bench
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const PREFILL = Number(process.env.PREFILL ?? 50_000);
const CONNECTIONS = 20;
const USERS = 50;
// SHAPE=blast: the peer comparison's mail instead (bench-peer/blast.py: 10 KB of random letters, a fixed
// body per connection, unique subjects, three mailboxes, no replies).
const BLAST = process.env.SHAPE === 'blast';

const step = (what: string) => console.error(`[db-cpu ${new Date().toISOString().slice(11, 19)}] ${what}`);
/** CPU time a process or thread has run, in ms (schedstat: nanoseconds, not 10 ms ticks). */
const cpuMs = (dir: string): number => Number(readFileSync(`${dir}/schedstat`, 'utf8').split(' ')[0]) / 1e6;

// Statements as the server sends them, counted by their text's start.
// On PostgreSQL also the backend's CPU while each statement ran (its backend runs nothing else meanwhile).
const statements = new Map<string, { n: number; ms: number; cpu: number }>();
let counting = false;
const count = (text: string, ms: number, cpu = 0): void => {
  if (!counting) return;
  const key = text.replace(/\s+/g, ' ').slice(0, 90);
  const s = statements.get(key) ?? { n: 0, ms: 0, cpu: 0 };
  s.n += 1;
  s.ms += ms;
  s.cpu += cpu;
  statements.set(key, s);
};
const pgQuery = pg.Client.prototype.query as (...a: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: unknown }).query = function (this: { processID?: number }, ...args: unknown[]) {
  const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text ?? '';
  const t0 = performance.now();
  const pid = this.processID;
  const c0 = pid ? cpuMs(`/proc/${pid}`) : 0;
  const r = pgQuery.apply(this, args);
  if (r instanceof Promise) void r.then(() => count(text, performance.now() - t0, pid ? cpuMs(`/proc/${pid}`) - c0 : 0), () => undefined);
  return r;
};
const liteQuery = PGliteThread.prototype.query;
PGliteThread.prototype.query = function (owner, text, params) {
  const t0 = performance.now();
  const r = liteQuery.call(this, owner, text, params);
  void r.then(() => count(text, performance.now() - t0), () => undefined);
  return r;
};

/** The database's CPU so far, in ms. */
type Meter = () => Promise<number>;

async function postgresMeter(url: string): Promise<{ meter: Meter; close(): Promise<void>; functions(): Promise<unknown[]> }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const seen = new Map<number, { base: number; last: number }>();
  const poll = async (): Promise<void> => {
    const r = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    for (const { pid } of r.rows) {
      try {
        const t = cpuMs(`/proc/${pid}`);
        const s = seen.get(pid);
        if (s) s.last = t;
        else seen.set(pid, { base: t, last: t });
      } catch { /* gone */ }
    }
  };
  await poll();
  const timer = setInterval(() => { void poll().catch(() => undefined); }, 200);
  const meter = async (): Promise<number> => {
    await poll();
    let sum = 0;
    for (const s of seen.values()) sum += s.last - s.base;
    return sum;
  };
  return {
    meter,
    close: async () => { clearInterval(timer); await c.end(); },
    functions: async () => (await c.query(`SELECT funcname, calls, round(total_time::numeric, 1) AS total_ms, round(self_time::numeric, 1) AS self_ms
      FROM pg_stat_user_functions ORDER BY total_time DESC`)).rows,
  };
}

/** PGlite's thread: the one whose CPU jumps while the database counts to a few million. */
async function pgliteMeter(run: (text: string) => Promise<unknown>): Promise<Meter> {
  const read = (): Map<string, number> => new Map(readdirSync('/proc/self/task').map((t) => [t, cpuMs(`/proc/self/task/${t}`)]));
  const before = read();
  await run('SELECT count(*) FROM generate_series(1, 8000000)');
  const after = read();
  let best = '';
  let most = -1;
  for (const [t, v] of after) if (v - (before.get(t) ?? 0) > most) { most = v - (before.get(t) ?? 0); best = t; }
  return async () => cpuMs(`/proc/self/task/${best}`);
}

const { env, cleanup } = await freshEnv('dbcpu');
step('fresh database ready');
const users = await createUsers(env, 'bench.test', USERS);
if (env.DATABASE_URL) {
  const c = new pg.Client({ connectionString: env.DATABASE_URL });
  await c.connect();
  await c.query(`ALTER DATABASE ${pg.escapeIdentifier(new URL(env.DATABASE_URL).pathname.slice(1))} SET track_functions = 'all'`);
  await c.end();
}
const config = loadConfig({ ...env, PORT: '18490', SMTP_PORT: '12990', WORKERS: '1', PROCESSES: '1', SMTP_MAX_CONNECTIONS_PER_IP: '10000', SMTP_CONNECTIONS_PER_MINUTE_PER_IP: '1000000' });
const rt = await startRuntime(config, { log: createLogger('warn'), seed: false });
const db = rt.services.db;
try {
  const ids = (await sql<{ id: number }>`SELECT id FROM users ORDER BY id`.execute(db)).rows.map((r) => Number(r.id));
  if (PREFILL > 0) {
    // Old mail: a subject shared by a few, a Message-ID each, tokens in the GIN index.
    await sql`INSERT INTO blobs (hash, size, refcount) VALUES ('prefill', 2000, ${PREFILL})`.execute(db);
    await sql`INSERT INTO mail_contents (blob_hash, message_id, subject, thread_subject, people_key, from_address, from_name, sent_at, snippet, text_body)
      SELECT 'prefill', '<p' || g || '@outside.example>', 'old subject ' || (g % 9000), 'old subject ' || (g % 9000), md5((g % 700)::text),
        'sender' || (g % 7) || '@outside.example', 'Sender', now() - make_interval(mins => ${PREFILL} - g), 'old mail', 'old mail body'
      FROM generate_series(1, ${PREFILL}) g`.execute(db);
    await sql`INSERT INTO messages (user_id, folder_mid, content_id, blob_hash, size, received_at, seen)
      SELECT (${ids}::bigint[])[1 + (c.id % ${ids.length})], 0, c.id, 'prefill', 2000, c.sent_at, c.id % 3 <> 0 FROM mail_contents c WHERE c.blob_hash = 'prefill'`.execute(db);
    await sql`INSERT INTO mail_search (content_id, search)
      SELECT c.id, array_to_tsvector(ARRAY(SELECT DISTINCT 'w' || ((c.id * 7919 + k * 104729) % 20000) FROM generate_series(1, 150) k)) FROM mail_contents c WHERE c.blob_hash = 'prefill'`.execute(db);
    await sql`ANALYZE`.execute(db);
    step(`prefilled ${PREFILL} mails`);
  }

  const rand = rng(42);
  // A vocabulary of real size: the search tokens of a mail are a few hundred distinct lexemes, as in real mail.
  const vocab = Array.from({ length: 20_000 }, (_, i) => `w${i}`);
  const text = (bytes: number): string => {
    const out: string[] = [];
    for (let n = 0; n < bytes;) {
      const w = vocab[Math.floor(vocab.length * rand() ** 2)]!;
      out.push(w);
      n += w.length + 1;
      if (out.length % 14 === 0) out.push('\n');
    }
    return out.join(' ');
  };
  const attachment = Buffer.alloc(200 * 1024, 7);
  const byUser = new Map<string, { messageId: string; subject: string; from: string }[]>();
  const blastBodies = Array.from({ length: CONNECTIONS }, () => Array.from({ length: 10_240 }, () => 'abcdefghij klmnop\n'[Math.floor(rand() * 18)]).join(''));
  const mails = BLAST ? Array.from({ length: MESSAGES }, (_, i) => ({
    from: 'load@example.org', to: users[i % 3]!, subject: `blast-${i}-${process.pid}`, messageId: `<blast-${i}-${process.pid}@example.org>`,
    text: blastBodies[i % CONNECTIONS]!, inReplyTo: undefined as string | undefined, references: undefined as string[] | undefined, attachments: [] as { filename: string; content: Buffer }[],
  })) : Array.from({ length: MESSAGES }, (_, i) => {
    const u = Math.floor(rand() * USERS);
    const to = users[u]!;
    const from = `sender${i % 7}@outside.example`;
    const mine = byUser.get(to) ?? [];
    const r = rand();
    const earlier = mine.length > 0 ? mine[Math.floor(rand() * mine.length)]! : null;
    let subject = `bench message ${i}`;
    let inReplyTo: string | undefined;
    if (r < 0.3 && earlier) { subject = `Re: ${earlier.subject}`; inReplyTo = earlier.messageId; }
    else if (r < 0.4) { const g = 1 + ((u + 50 * Math.floor(rand() * 100)) % Math.max(PREFILL, 1)); inReplyTo = `<p${g}@outside.example>`; subject = `Re: old subject ${g % 9000}`; }
    else if (r < 0.5 && earlier) subject = earlier.subject;
    const messageId = `<b${i}.${process.pid}@outside.example>`;
    mine.push({ messageId, subject, from });
    byUser.set(to, mine);
    return {
      from, to, subject, messageId, inReplyTo, references: inReplyTo ? [inReplyTo] : undefined,
      text: text(4 * 1024 + Math.floor(rand() * 36 * 1024)),
      attachments: rand() < 0.1 ? [{ filename: 'report.bin', content: attachment }] : [],
    };
  });

  const pgm = env.DATABASE_URL ? await postgresMeter(env.DATABASE_URL) : null;
  const meter: Meter = pgm ? pgm.meter : await pgliteMeter((t) => sql.raw(t).execute(db));
  await new Promise((r) => setTimeout(r, 1500));
  step('sending');
  counting = true;
  const cpu0 = await meter();
  const t0 = performance.now();
  let failed = 0;
  let next = 0;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    const t = nodemailer.createTransport({ host: '127.0.0.1', port: rt.smtpPort, pool: true, maxConnections: 1, maxMessages: Infinity, ignoreTLS: true });
    while (next < mails.length) {
      const mail = mails[next++]!;
      try { await t.sendMail(mail); } catch { failed += 1; }
    }
    t.close();
  }));
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = await meter();
  counting = false;
  const delivered = MESSAGES - failed;
  step('delivered; waiting for the search indexer');
  for (;;) {
    const n = Number((await sql<{ n: number }>`SELECT count(*) AS n FROM search_pending`.execute(db)).rows[0]!.n);
    if (n === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const cpu2 = await meter();
  const top = [...statements.entries()].sort((a, b) => b[1].cpu - a[1].cpu || b[1].ms - a[1].ms).slice(0, 25)
    .map(([k, v]) => ({ n: v.n, per_mail: round(v.n / delivered, 3), wall_ms: round(v.ms), db_cpu_ms_per_mail: round(v.cpu / delivered, 3), sql: k }));
  const total = [...statements.values()].reduce((a, s) => a + s.n, 0);
  const commits = (statements.get('commit')?.n ?? 0) + (statements.get('COMMIT')?.n ?? 0);
  console.log(JSON.stringify({
    bench: 'db-cpu', db: dbKind, shape: BLAST ? 'blast' : 'mixed', messages: MESSAGES, prefill: PREFILL, delivered, failed, seconds: round(seconds, 2), msgs_per_s: round(delivered / seconds),
    db_cpu_ms_per_mail: round((cpu1 - cpu0) / delivered, 2), indexer_db_cpu_ms_per_mail: round((cpu2 - cpu1) / delivered, 2),
    statements_per_mail: round(total / delivered, 2), commits, mails_per_commit: commits ? round(delivered / commits, 2) : null,
  }));
  for (const t of top) console.error(JSON.stringify(t));
  if (pgm) {
    console.error(JSON.stringify(await pgm.functions()));
    await pgm.close();
  }
} finally {
  await rt.stop();
  await cleanup();
}
