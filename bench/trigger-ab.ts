import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import pgm from 'pg';
import { loadConfig } from '../apps/server/src/config.js';
import { openServices } from '../apps/server/src/runtime.js';
import { fileMail } from '../apps/server/src/features/message/filing.repository.js';
import { createUsers, freshEnv } from './lib.js';

// Issue 13: the messages insert's own cost with the three AFTER INSERT triggers of before
// migration 032 and with its one merged trigger, A/B in the same database and process, in
// alternating blocks (the machine is shared). Since migration 033 the insert is part of the one
// statement that files a batch (filing.repository.ts), so that statement is what is measured;
// the difference between the modes is the triggers'. PostgreSQL: the backend's CPU (schedstat)
// over the statement; PGlite: the statement's wall time (its thread runs nothing else).
//   [DATABASE_URL=…] BLOCKS=10 PER_BLOCK=50 npx tsx trigger-ab.ts
const BLOCKS = Number(process.env.BLOCKS ?? 10);
const PER_BLOCK = Number(process.env.PER_BLOCK ?? 50);
const PREFILL = Number(process.env.PREFILL ?? 1000);
const OLD = readFileSync(new URL('../apps/server/src/db/migrations/001-initial.ts', import.meta.url), 'utf8');
const CONV = readFileSync(new URL('../apps/server/src/db/migrations/025-conversations.ts', import.meta.url), 'utf8');
const fn = (src: string, name: string) => {
  const at = src.indexOf(`CREATE FUNCTION ${name}()`);
  return src.slice(at, src.indexOf('END $$;', at) + 7);
};

const EXPLAIN = process.env.EXPLAIN === '1';
if (EXPLAIN) {
  const connect = pgm.Client.prototype.connect;
  (pgm.Client.prototype as unknown as { connect: unknown }).connect = function (this: pgm.Client, ...a: unknown[]) {
    this.on('notice', (n) => { if (n.message?.includes('INSERT INTO messages')) console.log(n.message); });
    return (connect as (...x: unknown[]) => unknown).apply(this, a);
  };
}
const { env, cleanup } = await freshEnv('trigger-ab');
const emails = await createUsers(env, 'ab.test', 3);
const { services, db: handle, close } = await openServices(loadConfig({ ...env, DATABASE_POOL_SIZE: '1' }));
const db = services.db;
const pg = handle.kind === 'postgres';
const pid = pg ? (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db)).rows[0]!.pid : 0;
const cpu = (): number => pg ? Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6 : performance.now();
const users = (await db.selectFrom('users').select('id').where('email', 'in', emails).orderBy('id').execute()).map((u) => u.id);
await sql`INSERT INTO blobs (hash, size, refcount) VALUES ('ab', 10000, 1000000)`.execute(db);
await sql.raw(`${fn(OLD, 'messages_counters_ins')}\n`).execute(db);
await sql.raw(`${fn(CONV, 'conversations_ins')}\n`).execute(db);
await sql.raw(`CREATE TRIGGER messages_counters_insert AFTER INSERT ON messages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_counters_ins();
CREATE TRIGGER messages_conversations_insert AFTER INSERT ON messages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION conversations_ins();
CREATE TRIGGER messages_events_insert AFTER INSERT ON messages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_events();`).execute(db);
const mode = async (old: boolean) => {
  for (const t of ['messages_counters_insert', 'messages_conversations_insert', 'messages_events_insert']) await sql.raw(`ALTER TABLE messages ${old ? 'ENABLE' : 'DISABLE'} TRIGGER ${t}`).execute(db);
  await sql.raw(`ALTER TABLE messages ${old ? 'DISABLE' : 'ENABLE'} TRIGGER messages_after_insert`).execute(db);
};
const content = await services.parser.parse(Buffer.from('From: a@x.example\r\nTo: b@ab.test\r\nSubject: ab\r\n\r\nhello\r\n'), 'a@x.example');
let n = 0;
/** One delivery batch as the blast bench makes them: two mails, each to one mailbox's Inbox. */
const batch = async (): Promise<number> => {
  const contents = [0, 1].map((i) => ({ hash: 'ab', content: { ...content, subject: `ab ${n + i}` } }));
  const rows = [0, 1].map((i) => ({ user_id: users[(n + i) % users.length]!, folder_mid: 0, content: i + 1, blob_hash: 'ab', size: 10000, received_at: new Date(), seen: false, star: false,
    urgent: false, has_attach: false, delivery_state: null, bcc: '[]', auth_results: null }));
  n += 2;
  const t0 = cpu();
  await fileMail(db, { blobs: [{ hash: 'ab', size: 10000, n: 2 }], contents, rows });
  return cpu() - t0;
};
await mode(false);
for (let i = 0; i < PREFILL / 2; i++) await batch();
// ANALYZE=1: the planner knows the prefilled tables (autovacuum would, a minute later).
if (process.env.ANALYZE === '1') await sql`ANALYZE`.execute(db);
if (EXPLAIN) {
  await sql.raw(`LOAD 'auto_explain'`).execute(db);
  await sql.raw(`SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_triggers = on; SET auto_explain.log_level = notice; SET auto_explain.log_timing = on`).execute(db);
  for (const m of [true, false]) { await mode(m); console.log(m ? '--- old' : '--- merged'); for (let i = 0; i < 3; i++) await batch(); }
  await sql.raw(`SET auto_explain.log_min_duration = -1`).execute(db);
  await close(); await cleanup(); process.exit(0);
}
const per: Record<'old' | 'merged', number[]> = { old: [], merged: [] };
for (let b = 0; b < BLOCKS; b++) {
  for (const m of ['old', 'merged'] as const) {
    await mode(m === 'old');
    for (let i = 0; i < 5; i++) await batch();
    let sum = 0;
    for (let i = 0; i < PER_BLOCK; i++) sum += await batch();
    per[m].push(sum / PER_BLOCK / 2);
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
// The counters must agree with the rows whichever trigger filed them.
const bad = await sql<{ n: number }>`SELECT count(*)::int AS n FROM folders f WHERE f.user_id IN (${sql.join(users)}) AND (f.total, f.unread, f.convs) <>
  ((SELECT count(*) FROM messages m WHERE m.user_id = f.user_id AND m.folder_mid = f.mid), (SELECT count(*) FILTER (WHERE NOT seen) FROM messages m WHERE m.user_id = f.user_id AND m.folder_mid = f.mid),
   (SELECT count(DISTINCT conv_id) FROM messages m WHERE m.user_id = f.user_id AND m.folder_mid = f.mid))`.execute(db);
console.log(JSON.stringify({ bench: 'trigger-ab', db: handle.kind, measure: pg ? 'backend cpu ms per mail' : 'statement wall ms per mail', blocks: BLOCKS, per_block: PER_BLOCK,
  old_median: Number(median(per.old).toFixed(3)), merged_median: Number(median(per.merged).toFixed(3)), old: per.old.map((x) => Number(x.toFixed(3))), merged: per.merged.map((x) => Number(x.toFixed(3))), counters_wrong: bad.rows[0]!.n }));
await close();
await cleanup();
