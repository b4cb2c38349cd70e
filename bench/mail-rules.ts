import nodemailer from 'nodemailer';
import type { RuleInput } from '@mailwing/shared';
import { loadConfig } from '../apps/server/src/config.js';
import { openServices } from '../apps/server/src/runtime.js';
import { createUsers, dbKind, freshEnv, percentile, rng, round, startServer, treeCpuSeconds, words } from './lib.js';

// What filter rules cost ingest (issue 16: at most 10 % with 20 rules per mailbox).
// One server, two groups of mailboxes: one without rules, one with RULES_PER_MAILBOX
// each. Rounds alternate between the groups (A B A B …) so both see the same machine
// load, and the figure is the ratio of their throughputs.
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 4000);
const RULES = Number(process.env.RULES_PER_MAILBOX ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const CONNECTIONS = 20;
const USERS_PER_GROUP = 20;

const step = (what: string) => console.error(`[mail-rules ${new Date().toISOString().slice(11, 19)}] ${what}`);
const { env, cleanup } = await freshEnv('mail-rules');
const users = await createUsers(env, 'bench.test', USERS_PER_GROUP * 2);
const plain = users.slice(0, USERS_PER_GROUP);
const ruled = users.slice(USERS_PER_GROUP);

// Rules as people write them: senders, domains, subject and body words, size; one in
// twenty matches and files the mail (so actions are part of the cost).
function rulesFor(i: number, folder: string): RuleInput[] {
  return Array.from({ length: RULES }, (_, k): RuleInput => {
    const match = k === RULES - 1;
    const conditions: RuleInput['conditions'] = match
      ? [{ field: 'subject', op: 'contains', value: 'bench message' }]
      : [
        { field: 'from', op: k % 2 ? 'domain' : 'contains', value: `vendor${i}-${k}.example` },
        { field: 'subject', op: 'contains', value: `project ${k} status` },
        { field: 'body', op: 'contains', value: `invoice-${i}-${k}` },
      ];
    return { name: `rule ${k}`, enabled: true, match: k % 3 ? 'any' : 'all', conditions, actions: match ? [{ type: 'move', folder }, { type: 'star' }] : [{ type: 'read' }], stop: false };
  });
}

{
  const { services, close } = await openServices(loadConfig(env));
  try {
    for (const [i, email] of ruled.entries()) {
      const u = await services.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const folder = await services.mailbox.createFolder(u.id, { name: 'Filed' });
      for (const r of rulesFor(i, folder.mid)) await services.mailRules.create(u.id, r);
    }
  } finally {
    await close();
  }
}
step(`${USERS_PER_GROUP} mailboxes without rules, ${USERS_PER_GROUP} with ${RULES} each`);
const server = await startServer(env, 18490, 12990);
try {
  const rand = rng(7);
  const mail = (to: string, i: number) => ({
    from: `sender${i % 7}@outside.example`, to, subject: `bench message ${i}`, text: words(rand, 4 * 1024 + Math.floor(rand() * 36 * 1024)),
  });
  const transports = Array.from({ length: CONNECTIONS }, () =>
    nodemailer.createTransport({ host: '127.0.0.1', port: server.smtpPort, pool: true, maxConnections: 1, maxMessages: Infinity, ignoreTLS: true }));
  const perRound = Math.floor(MESSAGES / ROUNDS / 2);
  const rates: Record<'plain' | 'ruled', number[]> = { plain: [], ruled: [] };
  // Server CPU per message: steadier than throughput on a machine others share.
  const cpu: Record<'plain' | 'ruled', number> = { plain: 0, ruled: 0 };
  let failed = 0;
  let n = 0;
  const phase = async (group: string[], tally?: 'plain' | 'ruled'): Promise<number> => {
    const cpu0 = treeCpuSeconds(server.pid);
    const batch = Array.from({ length: perRound }, () => mail(group[Math.floor(rand() * group.length)]!, n++));
    let next = 0;
    const t0 = performance.now();
    await Promise.all(transports.map(async (t) => {
      while (next < batch.length) {
        const m = batch[next++]!;
        await t.sendMail(m).catch(() => { failed += 1; });
      }
    }));
    const rate = batch.length / ((performance.now() - t0) / 1000);
    if (tally) cpu[tally] += treeCpuSeconds(server.pid) - cpu0;
    return rate;
  };
  await phase(plain); // warm-up: caches, JIT, connections
  await phase(ruled);
  for (let r = 0; r < ROUNDS; r++) {
    rates.plain.push(await phase(plain, 'plain'));
    rates.ruled.push(await phase(ruled, 'ruled'));
    step(`round ${r + 1}: ${round(rates.plain.at(-1)!)} vs ${round(rates.ruled.at(-1)!)} msgs/s`);
  }
  for (const t of transports) t.close();
  const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
  const ratio = median(rates.ruled) / median(rates.plain);
  console.log(JSON.stringify({
    bench: 'mail-rules', db: dbKind, rules_per_mailbox: RULES, rounds: ROUNDS, messages_per_round: perRound, failed,
    plain_msgs_per_s: round(median(rates.plain)), ruled_msgs_per_s: round(median(rates.ruled)),
    ratio: round(ratio, 3), slowdown_pct: round((1 - ratio) * 100, 1),
    plain_cpu_ms_per_msg: round((1000 * cpu.plain) / (ROUNDS * perRound), 2), ruled_cpu_ms_per_msg: round((1000 * cpu.ruled) / (ROUNDS * perRound), 2),
    cpu_ratio: round(cpu.ruled / cpu.plain, 3),
  }));
} finally {
  await server.stop();
  await cleanup();
}
