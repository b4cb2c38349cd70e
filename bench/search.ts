import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config.js';
import { openServices } from '../apps/server/src/runtime.js';
import { contentTokens } from '../apps/server/src/features/search/content-tokens.js';
import { createUsers, dbKind, freshEnv, percentile, rng, round, startServer } from './lib.js';

// A mailbox of 100,000 messages (about 10% Chinese, bodies 0.5–20 KB, log-uniform),
// then /h5/search/mail timed over HTTP for a selective word, a common word, a Chinese
// two-character word and a sender address. Also the index size beside the data size.
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const CLIENTS = 4;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const step = (what: string) => console.error(`[search ${new Date().toISOString().slice(11, 19)}] ${what}`);

const EN = ('the a to of and in for is on that with this be are we you it as at from by have will please our your meeting report quarter budget '
  + 'review project customer invoice schedule update design release server network office travel contract team plan sales marketing product '
  + 'launch deadline approval feedback draft agenda minutes call notes order shipment payment account support issue ticket account policy').split(' ');
const ZH = ('我们 会议 报告 季度 预算 项目 客户 发票 合同 团队 计划 销售 市场 产品 发布 审批 反馈 草稿 议程 纪要 通知 订单 付款 账户 支持 问题 '
  + '请查收 附件 周五 下午 上午 明天 今天 已经 需要 确认 安排 时间 地点 负责 部门 公司 同事 领导 总结 数据 系统 网络 办公室').split(' ');
const SENDERS = Array.from({ length: 100 }, (_, i) => ({ name: `Sender ${i}`, address: `sender${i}@corp${i % 7}.example` }));

const rand = rng(42);
// A Zipf-like pick: low indexes are much more common, like words in real text.
const zipf = <T>(list: T[]) => list[Math.min(list.length - 1, Math.floor(list.length * rand() ** 2.2))]!;

function body(chinese: boolean, bytes: number, i: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = chinese ? (rand() < 0.85 ? zipf(ZH) : zipf(EN)) : zipf(EN);
    out.push(w);
    n += chinese ? w.length * 3 : w.length + 1;
    if (out.length % 16 === 0) out.push(chinese ? '。\n' : '.\n');
  }
  // The selective word: in about 1 message of 10,000.
  if (i % 10_000 === 7) out.push('xylophone');
  return out.join(chinese ? '' : ' ');
}

const { env, cleanup } = await freshEnv('search');
const [email] = await createUsers(env, 'bench.test', 1);
const t0 = performance.now();
{
  const { services, db, close } = await openServices({ ...loadConfig(env), parseWorkers: 0 });
  const staged = await services.blobs.store.stage(Buffer.from('From: a@x.test\r\nSubject: bench\r\n\r\nbody\r\n'));
  const user = await db.db.selectFrom('users').select('id').where('email', '=', email!).executeTakeFirstOrThrow();
  await db.db.transaction().execute((trx) => services.blobs.reference(trx, [{ staged, n: MESSAGES }]));
  const BATCH = 500;
  for (let start = 0; start < MESSAGES; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, MESSAGES - start) }, (_, k) => {
      const i = start + k;
      const chinese = rand() < 0.1;
      const size = Math.round(512 * 40 ** rand());
      const from = zipf(SENDERS);
      const subject = chinese ? `${zipf(ZH)}${zipf(ZH)}${zipf(ZH)} ${i}` : `${zipf(EN)} ${zipf(EN)} ${zipf(EN)} ${i}`;
      const text = body(chinese, size, i);
      const to = [{ name: '', address: email! }];
      const tokens = contentTokens({ subject, from, to, cc: [], text, attachments: [] });
      return { subject, from, text, tokens: tokens.join(' '), at: new Date(Date.now() - (MESSAGES - i) * 60_000) };
    });
    await sql`
      WITH c AS (
        INSERT INTO mail_contents (blob_hash, subject, from_name, from_address, to_list, snippet, text_body, sent_at, search)
        SELECT ${staged.hash}, s, fn, fa, ${JSON.stringify([{ name: '', address: email }])}::jsonb, left(b, 140), b, at, array_to_tsvector(string_to_array(tk, ' '))
        FROM unnest(${rows.map((r) => r.subject)}::text[], ${rows.map((r) => r.from.name)}::text[], ${rows.map((r) => r.from.address)}::text[],
                    ${rows.map((r) => r.text)}::text[], ${rows.map((r) => r.at.toISOString())}::timestamptz[], ${rows.map((r) => r.tokens)}::text[]) AS u(s, fn, fa, b, at, tk)
        RETURNING id, sent_at, length(text_body) AS len)
      INSERT INTO messages (user_id, folder_mid, content_id, blob_hash, size, received_at, seen)
      SELECT ${user.id}, CASE WHEN c.id % 20 = 0 THEN 6 ELSE 0 END, c.id, ${staged.hash}, c.len + 600, c.sent_at, c.id % 4 <> 0 FROM c`.execute(db.db);
    if ((start / BATCH) % 40 === 0) step(`loaded ${start + rows.length}`);
  }
  await services.blobs.store.release(staged);
  // A freshly bulk-loaded table would otherwise be vacuumed by autovacuum during the timing.
  await sql`VACUUM ANALYZE`.execute(db.db);
  await close();
}
const loadSecs = (performance.now() - t0) / 1000;
step(`loaded ${MESSAGES} messages in ${round(loadSecs)} s`);

const server = await startServer(env, 18483, 12983);
const result: Record<string, unknown> = { bench: 'search', db: dbKind, messages: MESSAGES, clients: CLIENTS, load_s: round(loadSecs) };
try {
  const base = `http://127.0.0.1:${server.httpPort}`;
  const login = await (await fetch(`${base}/h5/login/h5`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${email}&password=bench-password` })).json() as { data: { token: string } };
  const auth = { authorization: `Bearer ${login.data.token}` };
  const queries: Record<string, string> = { selective: 'xylophone', common: 'meeting', chinese: '季度', sender: 'sender3@corp3.example' };
  for (const [name, q] of Object.entries(queries)) {
    const url = `${base}/h5/search/mail?q=${encodeURIComponent(q)}&size=20`;
    const first = await (await fetch(url, { headers: auth })).json() as { code: number; data: { total: number; more: boolean } };
    if (first.code !== 200) throw new Error(`${q}: ${JSON.stringify(first)}`);
    for (let i = 0; i < 20; i++) await fetch(url, { headers: auth }).then((r) => r.arrayBuffer());
    // One client shows the service time; several show it with queueing on the shared cores.
    const measure = async (clients: number) => {
      const times: number[] = [];
      let next = 0;
      await Promise.all(Array.from({ length: clients }, async () => {
        while (next++ < REQUESTS) {
          const t = performance.now();
          await (await fetch(url, { headers: auth })).arrayBuffer();
          times.push(performance.now() - t);
        }
      }));
      times.sort((a, b) => a - b);
      return { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) };
    };
    const one = await measure(1);
    const many = await measure(CLIENTS);
    result[name] = {
      q, hits: first.data.more ? `${first.data.total}+` : first.data.total,
      p50_ms: many.p50, p99_ms: many.p99, single_client_p50_ms: one.p50, single_client_p99_ms: one.p99,
    };
    step(`${name} (${q}): ${JSON.stringify(result[name])}`);
  }
} finally {
  await server.stop();
}
{
  const { db, close } = await openServices({ ...loadConfig(env), parseWorkers: 0 });
  const size = async (rel: string) => Number((await sql<{ n: string }>`SELECT pg_total_relation_size(${rel}::regclass)::text AS n`.execute(db.db)).rows[0]!.n) / 1024 / 1024;
  const rel = async (rel: string) => Number((await sql<{ n: string }>`SELECT pg_relation_size(${rel}::regclass)::text AS n`.execute(db.db)).rows[0]!.n) / 1024 / 1024;
  result.gin_index_mb = round(await rel('mail_search_gin'));
  result.contents_total_mb = round(await size('mail_contents'));
  result.messages_total_mb = round(await size('messages'));
  await close();
}
// BENCH_KEEP=1 leaves the data for EXPLAIN work.
if (process.env.BENCH_KEEP) step(`kept ${env.DATABASE_URL ?? env.DATA_DIR}`);
else await cleanup();
console.log(JSON.stringify(result));
