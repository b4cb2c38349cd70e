import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CollectAccount, MailList } from '@mailwing/shared';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CollectService } from '../src/features/collect/collect.service.js';
import { pauseNotice } from '../src/features/collect/collect.notice.js';
import { loadCollectKey, SecretBox } from '../src/features/collect/secret-box.js';
import { AddressPolicy } from '../src/net/ssrf.js';
import { PEER_TIMEOUT_MS, startDovecot, type DovecotPeer } from './dovecot-peer.js';
import { startDemo, type TestServer } from './harness.js';
import { startPop3StandIn } from './pop3-standin.js';

// Collection as queue work: leases, schedule, and a run killed half-way.

let peer: DovecotPeer;
let s: TestServer;
let alice: string;


function collector(now: () => Date, random = () => 0.5) {
  const sv = s.rt.services;
  return new CollectService({
    db: sv.db, ingest: sv.ingest, box: new SecretBox(loadCollectKey(undefined, s.dataDir)), maxMessageBytes: 1024 * 1024,
    cfg: { key: undefined, allowPrivate: true, caFile: peer.caFile, timeoutMs: PEER_TIMEOUT_MS, leaseMs: 60_000 },
    policy: new AddressPolicy({ allowPrivate: true }), notifyPaused: pauseNotice(sv.db, sv.mailer), now, random,
  });
}
const aliceId = async () => (await s.rt.services.db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow()).id;
const remote = (n: number, tag: string, pad = 0) => Buffer.from(
  `From: r${n}@remote.test\r\nSubject: ${tag} ${n}\r\nMessage-ID: <${tag}-${n}@remote.test>\r\n\r\n${'word '.repeat(pad)}\r\nend ${n}\r\n`);

beforeAll(async () => {
  peer = await startDovecot();
  ({ s, alice } = await startDemo({ collect: { key: undefined, allowPrivate: true, caFile: peer.caFile, timeoutMs: PEER_TIMEOUT_MS, leaseMs: 60_000 } }));
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await peer?.stop();
});

describe('schedule and leases', () => {
  it('runs an account when due (interval with jitter), and two collectors never take it together', async () => {
    const standin = await startPop3StandIn([{ uidl: 'q1', raw: remote(1, 'Queue') }], 'pw');
    onTestFinished(() => standin.close());
    // Starts at the real time, not a fixed date: the last check goes through the HTTP route,
    // which reads the server's own clock, and the lease claimed at the test's "now" must still
    // be held by that clock. (A fixed 2026-12-01 made this fail from that day on.)
    let now = new Date();
    const a = collector(() => now, () => 0);
    const b = collector(() => now, () => 0);
    const acc = await a.create(await aliceId(), { protocol: 'pop3', host: '127.0.0.1', port: standin.port, tls: 'none', username: 'q', leaveCopy: true, folder: '0', interval: 10 }, 'pw');
    // Deleted even when an assertion fails: a left-over account would also be due in the next tests.
    onTestFinished(async () => { await s.post('/h5/collect/delete', { id: acc.id }, alice); });
    const logins = () => standin.commands.filter((c) => c.startsWith('USER')).length;
    const before = logins();
    const ran = await Promise.all([a.runDue(5), b.runDue(5)]);
    expect(ran[0]! + ran[1]!).toBe(1);
    expect(logins()).toBe(before + 1);
    // random() = 0: the next run comes at 0.9 × 10 minutes.
    now = new Date(now.getTime() + 8.9 * 60_000);
    expect(await a.runDue(5)).toBe(0);
    now = new Date(now.getTime() + 0.1 * 60_000);
    expect(await b.runDue(5)).toBe(1);
    // A run under way holds its lease: "check now" is refused meanwhile.
    const held = collector(() => now);
    const [claimed] = await (await import('../src/features/collect/collect.repository.js')).claim(s.rt.services.db, now, 60_000, 1, { userId: await aliceId(), id: Number(acc.id) });
    expect(claimed).toBeTruthy();
    await expect(held.checkNow(await aliceId(), acc.id)).rejects.toMatchObject({ reason: 'collect.busy' });
    expect((await s.post('/h5/collect/check', { id: acc.id }, alice))).toMatchObject({ code: 422, reason: 'collect.busy' });
  });
});

describe('a crash mid-run', () => {
  it.each([
    { protocol: 'pop3', port: () => peer.ports.pop3s, user: 'kim' },
    { protocol: 'imap', port: () => peer.ports.imaps, user: 'lou' },
  ])('$protocol: loses nothing and stores nothing twice when the collecting process is killed', async ({ protocol, port, user }) => {
    // Enough mail that the run is still going when the kill lands, on a loaded machine too.
    const N = 200;
    const tag = `Crash-${protocol}`;
    peer.addUser(user, 'crash-pass');
    for (let i = 1; i <= N; i++) peer.seed(user, remote(i, tag, 400));
    const acc = (await s.post<CollectAccount>('/h5/collect/create', {
      protocol, host: peer.host, port: port(), tls: 'tls', username: user, password: 'crash-pass', leaveCopy: 0, folder: '0', interval: 5,
    }, alice)).data;
    expect(acc.id).toBeTruthy();
    await s.halt();

    const child = fork(fileURLToPath(new URL('./fixtures/collect-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env, DATA_DIR: s.config.dataDir, ...(s.config.databaseUrl ? { DATABASE_URL: s.config.databaseUrl } : {}),
        COLLECT_ALLOW_PRIVATE: '1', COLLECT_CA: peer.caFile, PARSE_WORKERS: '0', LOG_LEVEL: 'silent', WORKERS: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let finished = false;
    child.on('message', (m) => {
      if (m === 'done') finished = true;
      if (m === 'stored') child.kill('SIGKILL');
    });
    await exited;
    expect(finished, 'the child finished before the kill landed').toBe(false);

    await s.restart();
    alice = await s.login('alice@demo.test');
    const list = async () => {
      const pages = await Promise.all([1, 2, 3].map((page) => s.get<MailList>('/h5/mail/list', { mid: '0', page, size: 100 }, alice)));
      return pages.flatMap((p) => p.data.list).filter((m) => m.subject.startsWith(`${tag} `));
    };
    const partial = (await list()).length;
    expect(partial).toBeGreaterThanOrEqual(1);
    expect(partial).toBeLessThan(N);
    expect(peer.count(user)).toBeGreaterThan(0);
    // Nothing lost: every mail is stored here or still on the peer (or both, when the kill
    // came between the store and the delete).
    expect(partial + peer.count(user)).toBeGreaterThanOrEqual(N);

    // The dead process's lease runs out; the next run finishes the job.
    const later = collector(() => new Date(Date.now() + 60 * 60_000));
    expect(await later.runDue(5)).toBe(1);
    const all = await list();
    // A run that stopped part-way says why in the account's status; a lost mail shows as a short sum.
    const status = JSON.stringify((await s.get<CollectAccount>('/h5/collect/get', { id: acc.id }, alice)).data.status);
    expect(all.length + peer.count(user), `stored + on the peer, after the run (status ${status})`).toBeGreaterThanOrEqual(N);
    expect(all, `after the run (status ${status})`).toHaveLength(N);
    expect(new Set(all.map((m) => m.subject)).size).toBe(N);
    expect(peer.count(user)).toBe(0);
    await s.post('/h5/collect/delete', { id: acc.id }, alice);
  }, 120_000);
});
