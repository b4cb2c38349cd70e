import os from 'node:os';
import { loadConfig } from '../apps/server/src/config.js';
import { seedDemo } from '../apps/server/src/demo/seed.js';
import { openServices } from '../apps/server/src/runtime.js';
import { startDovecot } from '../apps/server/test/dovecot-peer.js';
import { dbKind, freshEnv, round } from './lib.js';

// Migration throughput from a local Dovecot over loopback (implicit TLS): N mails spread
// over 5 folders (a mix of sizes) moved into a mailbox by one queue job through the shared
// IMAP engine, each stored through IngestService with its fingerprint in the same commit.
// Then a re-run, which must copy nothing.
const N = Number(process.env.BENCH_MESSAGES ?? 2000);
const FOLDERS = ['INBOX', 'Sent', 'Drafts', 'Archive', 'Projects'];
const step = (what: string) => console.error(`[migrate ${new Date().toISOString().slice(11, 19)}] ${what}`);

function mail(i: number): string {
  // Most mail is small; every twentieth is ~200 KB (an attachment's worth of base64).
  const body = i % 20 === 0 ? `${'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw'.repeat(4_600)}` : 'Hello from the old mail server. '.repeat(60);
  return `From: Sender ${i} <s${i}@old.test>\r\nTo: someone@old.test\r\nSubject: Bench ${i}\r\nMessage-ID: <bench-${i}@old.test>\r\n` +
    `Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body.replace(/(.{76})/g, '$1\r\n')}\r\n`;
}

const peer = await startDovecot();
const { env, cleanup } = await freshEnv('migrate');
const config = loadConfig({ ...env, COLLECT_ALLOW_PRIVATE: '1', COLLECT_CA: peer.caFile });
const { services, close } = await openServices(config);
let result: Record<string, unknown> | undefined;
try {
  await seedDemo(services);
  const company = await services.db.selectFrom('companies').select('id').where('name', '=', 'Demo Co').executeTakeFirstOrThrow();
  const remote = 'bench@old.test';
  peer.addUser(remote, 'pw');
  for (let i = 1; i <= N; i++) {
    const f = FOLDERS[i % FOLDERS.length]!;
    if (f === 'INBOX') peer.seed(remote, mail(i));
    else peer.seedFolder(remote, f, mail(i));
  }
  const server = { host: '127.0.0.1', port: peer.ports.imaps, tls: 'tls' as const };
  const imported = await services.migrate.importCsv(company.id, server, `${remote},pw,alice@demo.test\n`);
  if (imported.created !== 1) throw new Error(JSON.stringify(imported));
  step(`moving ${N} mails in ${FOLDERS.length} folders`);
  const t0 = performance.now();
  await services.migrate.runDue();
  const s = (performance.now() - t0) / 1000;
  const [acc] = (await services.migrate.list(company.id)).list;
  if (!acc || acc.state !== 'done' || acc.copiedMessages !== N) throw new Error(JSON.stringify(acc));
  step('re-run (delta)');
  await services.migrate.rerun(company.id, acc.id, false);
  const t1 = performance.now();
  await services.migrate.runDue();
  const rerunS = (performance.now() - t1) / 1000;
  const [again] = (await services.migrate.list(company.id)).list;
  result = {
    bench: 'migrate', db: dbKind, messages: N, folders: FOLDERS.length, mb: round(acc.copiedBytes / 1e6, 1),
    msgs_per_s: round(N / s), mb_per_s: round(acc.copiedBytes / 1e6 / s, 2), s: round(s, 2),
    rerun_copied: (again?.copiedMessages ?? 0) - acc.copiedMessages, rerun_s: round(rerunS, 2),
    loadavg: os.loadavg().map((x) => round(x, 2)), cpus: os.cpus().length,
  };
} finally {
  await close();
  await peer.stop();
  await cleanup();
}
console.log(JSON.stringify(result));
