import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { CollectAccount, MailList } from '@mailwing/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectService } from '../src/features/collect/collect.service.js';
import { pauseNotice } from '../src/features/collect/collect.notice.js';
import { loadCollectKey, SecretBox } from '../src/features/collect/secret-box.js';
import { AddressPolicy, dnsResolve } from '../src/net/ssrf.js';
import { startDnsStandIn } from './dns-standin.js';
import { PEER_TIMEOUT_MS, startDovecot, type DovecotPeer } from './dovecot-peer.js';
import { startDemo, type TestServer } from './harness.js';
import { startPop3StandIn } from './pop3-standin.js';

// What goes wrong: bad passwords, hosts that do not answer, odd servers, foreign ids, secrets.

let peer: DovecotPeer;
let s: TestServer;
let alice: string;
let bob: string;
let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
const PASSWORD = 'Sup3r-secret-pw!';

const raw = (n: number, body = `Body ${n}`) => Buffer.from(`From: x${n}@remote.test\r\nSubject: Standin ${n}\r\nMessage-ID: <s${n}@remote.test>\r\n\r\n${body}\r\n`);

/** A collector over the test server's database with its own clock, logger and policy. */
function collector(o: { now?: () => Date; log?: pino.Logger; allowPrivate?: boolean; timeoutMs?: number; trustPeer?: boolean } = {}) {
  const sv = s.rt.services;
  return new CollectService({
    db: sv.db, ingest: sv.ingest, box: new SecretBox(loadCollectKey(undefined, s.dataDir)), maxMessageBytes: 1024 * 1024,
    cfg: { key: undefined, allowPrivate: o.allowPrivate ?? true, caFile: o.trustPeer === false ? undefined : peer.caFile, timeoutMs: o.timeoutMs ?? PEER_TIMEOUT_MS, leaseMs: 60_000 },
    policy: new AddressPolicy({ allowPrivate: o.allowPrivate ?? true, resolve: dnsResolve([dns.server]) }),
    notifyPaused: pauseNotice(sv.db, sv.mailer), now: o.now, log: o.log,
  });
}

const settings = (over: Partial<Parameters<CollectService['create']>[1]> = {}) => ({
  protocol: 'pop3' as const, host: peer.host, port: peer.ports.pop3s, tls: 'tls' as const, username: 'eve', leaveCopy: true, folder: '0', interval: 10, ...over,
});

beforeAll(async () => {
  peer = await startDovecot();
  dns = await startDnsStandIn({ localhost: { a: ['127.0.0.1'] } });
  ({ s, alice, bob } = await startDemo({ collect: { key: undefined, allowPrivate: true, caFile: peer.caFile, timeoutMs: PEER_TIMEOUT_MS, leaseMs: 60_000 } }));
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await peer?.stop();
  await dns?.close();
});

describe('authentication failures', () => {
  it('refuses to save a mailbox whose login fails, with the server reply', async () => {
    peer.addUser('eve', PASSWORD);
    const r = await s.post('/h5/collect/create', { ...settings(), leaveCopy: 1, password: 'wrong' }, alice);
    expect(r).toMatchObject({ code: 422, reason: 'collect.auth', error: { host: expect.stringContaining('-ERR') } });
    expect((await s.get<{ list: unknown[] }>('/h5/collect/list', {}, alice)).data.list).toHaveLength(0);
  });

  it('pauses after 5 failed logins in a row, tells the user, and resumes with a new password', async () => {
    let now = new Date('2026-11-24T08:00:00Z');
    const c = collector({ now: () => now });
    peer.addUser('gus', PASSWORD);
    const acc = await c.create(await userId('alice@demo.test'), settings({ username: 'gus' }), PASSWORD);
    await peer.setPassword('gus', 'changed-elsewhere');
    for (let i = 1; i <= 5; i++) {
      now = new Date(now.getTime() + 61 * 60_000);
      expect(await c.runDue(10)).toBe(1);
    }
    const view = await s.get<CollectAccount>('/h5/collect/get', { id: acc.id }, alice);
    expect(view.data.status, JSON.stringify(view.data.status)).toMatchObject({ paused: true, authFailures: 5, errorKind: 'auth', errorReply: expect.stringContaining('[AUTH]') });
    now = new Date(now.getTime() + 61 * 60_000);
    expect(await c.runDue(10)).toBe(0);
    const list = (await s.get<MailList>('/h5/mail/list', { mid: '0', page: 1, size: 50 }, alice)).data.list;
    expect(list.filter((m) => m.subject.includes('Collecting mail paused'))).toHaveLength(1);
    // Resume: a new password is tested and clears the pause.
    await peer.setPassword('gus', 'new-pass');
    const upd = await s.post<CollectAccount>('/h5/collect/update', { id: acc.id, ...settings({ username: 'gus' }), leaveCopy: 1, password: 'new-pass' }, alice);
    expect(upd, JSON.stringify(upd)).toMatchObject({ code: 200 });
    expect(upd.data.status).toMatchObject({ paused: false, authFailures: 0 });
    await s.post('/h5/collect/delete', { id: acc.id }, alice);
  });
});

async function userId(email: string): Promise<number> {
  return (await s.rt.services.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

describe('unreachable hosts', () => {
  const test = (over: Record<string, string | number>) => s.post('/h5/collect/test', { ...settings(), leaveCopy: 1, password: 'x', ...over }, alice);

  it('names a closed port, a name that does not resolve, a silent server and a refused address', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await test({ host: '127.0.0.1', port, tls: 'none' })).toMatchObject({ code: 422, reason: 'collect.network' });

    const c = collector({ timeoutMs: 500 });
    await expect(c.test(settings({ host: 'no-such-host.example.test' }), 'x')).rejects.toMatchObject({ reason: 'collect.dns' });

    const sockets: net.Socket[] = [];
    const silent = net.createServer((sock) => sockets.push(sock));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    await expect(c.test(settings({ host: '127.0.0.1', port: (silent.address() as net.AddressInfo).port, tls: 'none' }), 'x')).rejects.toMatchObject({ reason: 'collect.timeout' });
    await expect(c.test(settings({ host: '127.0.0.1', port: (silent.address() as net.AddressInfo).port, tls: 'tls', protocol: 'imap' }), 'x')).rejects.toMatchObject({ reason: 'collect.timeout' });
    for (const sock of sockets) sock.destroy();
    await new Promise<void>((r) => silent.close(() => r()));

    // A certificate nobody vouches for: refused over implicit TLS and STARTTLS, POP3 and IMAP alike.
    const untrusting = collector({ trustPeer: false });
    await expect(untrusting.test(settings(), PASSWORD)).rejects.toMatchObject({ reason: 'collect.tls' });
    await expect(untrusting.test(settings({ port: peer.ports.pop3, tls: 'starttls' }), PASSWORD)).rejects.toMatchObject({ reason: 'collect.tls' });
    await expect(untrusting.test(settings({ protocol: 'imap', port: peer.ports.imaps }), PASSWORD)).rejects.toMatchObject({ reason: 'collect.tls' });
    await expect(untrusting.test(settings({ protocol: 'imap', port: peer.ports.imap, tls: 'starttls' }), PASSWORD)).rejects.toMatchObject({ reason: 'collect.tls' });

    // Production policy: loopback and private addresses are not dialled at all.
    const strict = collector({ allowPrivate: false });
    await expect(strict.test(settings(), PASSWORD)).rejects.toMatchObject({ reason: 'collect.address' });
    await expect(strict.test(settings({ host: '10.1.2.3' }), PASSWORD)).rejects.toMatchObject({ reason: 'collect.address' });
  });

  it('records a failed run in the status with its category', async () => {
    let now = new Date('2026-11-25T08:00:00Z');
    const c = collector({ now: () => now, timeoutMs: 500 });
    const standin = await startPop3StandIn([{ uidl: 'a', raw: raw(9) }], PASSWORD);
    const acc = await c.create(await userId('bob@demo.test'), settings({ host: '127.0.0.1', port: standin.port, tls: 'none', username: 'hal' }), PASSWORD);
    // The server goes away after the account was saved.
    await standin.close();
    now = new Date(now.getTime() + 2 * 3600_000);
    expect(await c.runDue(10)).toBeGreaterThanOrEqual(1);
    const view = (await s.get<CollectAccount>('/h5/collect/get', { id: acc.id }, bob)).data;
    expect(view.status).toMatchObject({ errorKind: 'network', paused: false, authFailures: 0, lastCount: 0 });
    expect(view.status.errorReply).toContain('ECONNREFUSED');
    expect(new Date(view.status.lastRunAt!).getTime()).toBe(now.getTime());
    await s.post('/h5/collect/delete', { id: acc.id }, bob);
  });
});

describe('an RFC 1939 stand-in', () => {
  it('keeps UIDLs longer than 70 characters, undoes dot-stuffing, and deletes only after storing', async () => {
    const long = `L${'x'.repeat(120)}`;
    const standin = await startPop3StandIn([
      { uidl: long, raw: raw(1, '.\r\n..\r\n.x\r\nend') },
      { uidl: `${long}-2`, raw: raw(2) },
    ], PASSWORD);
    try {
      const c = collector();
      const acc = await c.create(await userId('alice@demo.test'), settings({ host: '127.0.0.1', port: standin.port, tls: 'none', username: 'u', leaveCopy: true }), PASSWORD);
      expect((await c.checkNow(await userId('alice@demo.test'), acc.id)).status.lastCount).toBe(2);
      const rows = await s.rt.services.db.withTables<{ collect_uidls: { account_id: number; uidl: string } }>().selectFrom('collect_uidls').select('uidl')
        .where('account_id', '=', Number(acc.id)).orderBy('uidl').execute();
      expect(rows.map((r) => r.uidl)).toEqual([long, `${long}-2`]);
      expect((await c.checkNow(await userId('alice@demo.test'), acc.id)).status.lastCount).toBe(0);
      const list = (await s.get<MailList>('/h5/mail/list', { mid: '0', page: 1, size: 50 }, alice)).data.list;
      const one = list.find((m) => m.subject === 'Standin 1')!;
      expect((await s.get<{ text: string }>('/h5/read/index', { mid: one.id }, alice)).data.text).toBe('.\n..\n.x\nend\n');
      // Now without a copy: DELE for both, and they leave the server at QUIT.
      await s.post('/h5/collect/update', { id: acc.id, protocol: 'pop3', host: '127.0.0.1', port: standin.port, tls: 'none', username: 'u', leaveCopy: 0, folder: '0', interval: 10 }, alice);
      await c.checkNow(await userId('alice@demo.test'), acc.id);
      expect(standin.messages).toHaveLength(0);
      expect(standin.commands.filter((x) => x.startsWith('DELE'))).toHaveLength(2);
      expect(standin.commands).not.toContain(`PASS ${PASSWORD}`);
    } finally {
      await standin.close();
    }
  });
});

describe('ownership, input and secrets', () => {
  it("answers 404 for another user's account ids, and refuses bad input", async () => {
    peer.addUser('fay', PASSWORD);
    const acc = (await s.post<CollectAccount>('/h5/collect/create', { ...settings({ username: 'fay' }), leaveCopy: 1, password: PASSWORD }, alice)).data;
    expect(acc.id).toBeTruthy();
    for (const [route, method] of [['/h5/collect/get', 'get'], ['/h5/collect/check', 'post'], ['/h5/collect/resume', 'post'], ['/h5/collect/delete', 'post']] as const) {
      const r = method === 'get' ? await s.get(route, { id: acc.id }, bob) : await s.post(route, { id: acc.id }, bob);
      expect(r, route).toMatchObject({ code: 404, reason: 'account.not_found' });
    }
    expect(await s.post('/h5/collect/update', { id: acc.id, ...settings({ username: 'fay' }), leaveCopy: 1 }, bob)).toMatchObject({ code: 404 });
    expect((await s.get<{ list: unknown[] }>('/h5/collect/list', {}, bob)).data.list).toHaveLength(0);
    expect(await s.post('/h5/collect/create', { ...settings({ username: 'fay' }), leaveCopy: 1, password: PASSWORD, interval: 4 }, alice)).toMatchObject({ code: 422 });
    expect(await s.post('/h5/collect/create', { ...settings({ username: 'fay' }), leaveCopy: 1, password: PASSWORD, interval: 61 }, alice)).toMatchObject({ code: 422 });
    expect(await s.post('/h5/collect/create', { ...settings({ username: 'fay\r\nDELE 1' }), leaveCopy: 1, password: PASSWORD }, alice)).toMatchObject({ code: 422 });
    expect(await s.post('/h5/collect/create', { ...settings({ username: 'fay', host: 'a b' }), leaveCopy: 1, password: PASSWORD }, alice)).toMatchObject({ code: 422 });
    expect(await s.post('/h5/collect/create', { ...settings({ username: 'fay', folder: '999' }), leaveCopy: 1, password: PASSWORD }, alice)).toMatchObject({ code: 422, reason: 'collect.folder' });
    expect(await s.get('/h5/collect/get', { id: '1'.repeat(16) }, alice)).toMatchObject({ code: 422 });
  });

  it('never keeps the password in plaintext, in the row, the database files or the logs', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'trace' }, new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } }));
    const c = collector({ log });
    const me = await userId('alice@demo.test');
    const acc = await c.create(me, settings({ username: 'fay' }), PASSWORD);
    await c.checkNow(me, acc.id);
    await peer.setPassword('fay', 'other');
    await c.checkNow(me, acc.id);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(PASSWORD);
    const rows = await s.rt.services.db.withTables<{ collect_accounts: { user_id: number; secret: string } }>().selectFrom('collect_accounts').selectAll().where('user_id', '=', me).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(JSON.stringify(r)).not.toContain(PASSWORD);
      expect(r.secret).toMatch(/^v1:/);
    }
    // Copied into another user's row, a ciphertext does not open (it is bound to its owner).
    await expect(new SecretBox(loadCollectKey(undefined, s.dataDir)).open(rows[0]!.secret, `collect:${me + 1}`)).rejects.toThrow();
    const keyFile = path.join(s.dataDir, 'collect.key');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    if (!s.config.databaseUrl) {
      const needle = Buffer.from(PASSWORD);
      const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
      const hits = walk(path.join(s.dataDir, 'db')).filter((f) => fs.readFileSync(f).includes(needle));
      expect(hits).toEqual([]);
    }
  });
});
