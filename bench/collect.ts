import { loadConfig } from '../apps/server/src/config.js';
import { seedDemo } from '../apps/server/src/demo/seed.js';
import { openServices } from '../apps/server/src/runtime.js';
import { startDovecot } from '../apps/server/test/dovecot-peer.js';
import { dbKind, freshEnv, round } from './lib.js';

// Collection throughput from a local Dovecot over loopback: N mails (a mix of sizes) fetched
// once over POP3 (STARTTLS) and once over IMAP (implicit TLS) into a mailbox, each
// stored through IngestService (blob fsync + commit) with its UIDL/UID in the same transaction.
const N = Number(process.env.BENCH_MESSAGES ?? 300);
const step = (what: string) => console.error(`[collect ${new Date().toISOString().slice(11, 19)}] ${what}`);

function mail(i: number): string {
  // Most mail is small; every tenth is ~200 KB (an attachment's worth of base64).
  const body = i % 10 === 0 ? `${'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw'.repeat(4_600)}` : 'Hello from the other mailbox. '.repeat(60);
  return `From: Sender ${i} <s${i}@remote.test>\r\nTo: someone@remote.test\r\nSubject: Bench ${i}\r\nMessage-ID: <bench-${i}@remote.test>\r\n` +
    `Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body.replace(/(.{76})/g, '$1\r\n')}\r\n`;
}

const peer = await startDovecot();
const { env, cleanup } = await freshEnv('collect');
const config = loadConfig({ ...env, COLLECT_ALLOW_PRIVATE: '1', COLLECT_CA: peer.caFile });
const { services, close } = await openServices(config);
let result: Record<string, unknown> | undefined;
try {
  await seedDemo(services);
  const user = await services.db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow();
  const run = async (protocol: 'pop3' | 'imap', remote: string) => {
    peer.addUser(remote, 'pw');
    for (let i = 1; i <= N; i++) peer.seed(remote, mail(i));
    const port = protocol === 'pop3' ? peer.ports.pop3 : peer.ports.imaps;
    const acc = await services.collect.create(user.id, {
      protocol, host: '127.0.0.1', port, tls: protocol === 'pop3' ? 'starttls' : 'tls', username: remote, leaveCopy: true, folder: '0', interval: 60,
    }, 'pw');
    step(`${protocol}: fetching ${N} mails`);
    const t0 = performance.now();
    const after = await services.collect.checkNow(user.id, acc.id);
    const s = (performance.now() - t0) / 1000;
    if (after.status.errorKind || after.status.lastCount !== N) throw new Error(`${protocol}: ${JSON.stringify(after.status)}`);
    return { msgs_per_s: round(N / s), mb_per_s: round(after.status.lastBytes / 1e6 / s, 2), s: round(s, 2), mb: round(after.status.lastBytes / 1e6, 1) };
  };
  const pop3 = await run('pop3', 'bench-pop');
  const imap = await run('imap', 'bench-imap');
  result = {
    bench: 'collect', db: dbKind, messages: N,
    pop3_msgs_per_s: pop3.msgs_per_s, pop3_mb_per_s: pop3.mb_per_s, pop3_s: pop3.s,
    imap_msgs_per_s: imap.msgs_per_s, imap_mb_per_s: imap.mb_per_s, imap_s: imap.s, mb_each_run: pop3.mb,
  };
} finally {
  await close();
  await peer.stop();
  await cleanup();
}
console.log(JSON.stringify(result));
