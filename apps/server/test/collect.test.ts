import type { CollectAccount, MailList } from '@mailwing/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEER_TIMEOUT_MS, startDovecot, type DovecotPeer } from './dovecot-peer.js';
import { startDemo, type TestServer } from './harness.js';

// Collection against a real Dovecot on loopback (POP3 and IMAP, STARTTLS and implicit TLS).

let peer: DovecotPeer;
let s: TestServer;
let alice: string;
let bob: string;

const mail = (n: number, subject = `Remote ${n}`, extra = '') =>
  `Return-Path: <far${n}@remote.test>\r\nFrom: Far Away <far${n}@remote.test>\r\nTo: someone@remote.test\r\nSubject: ${subject}\r\n` +
  `Message-ID: <remote-${n}-${subject.replace(/\W/g, '')}@remote.test>\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nBody of ${n}\r\n${extra}`;

const inbox = async (token: string, mid = '0') => (await s.get<MailList>('/h5/mail/list', { mid, page: 1, size: 100 }, token)).data.list;
const subjects = async (token: string, mid = '0') => (await inbox(token, mid)).map((m) => m.subject).filter((x) => !x.startsWith('收取')).sort();

const form = (over: Record<string, string | number> = {}) => ({
  protocol: 'pop3', host: peer.host, port: peer.ports.pop3, tls: 'starttls', username: 'ann', password: 'ann-pass', leaveCopy: 1, folder: '0', interval: 15, ...over,
});

async function create(token: string, over: Record<string, string | number> = {}): Promise<CollectAccount> {
  const r = await s.post<CollectAccount>('/h5/collect/create', form(over), token);
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data;
}
const check = async (token: string, id: string) => (await s.post<CollectAccount>('/h5/collect/check', { id }, token)).data;

beforeAll(async () => {
  peer = await startDovecot();
  ({ s, alice, bob } = await startDemo({ collect: { key: undefined, allowPrivate: true, caFile: peer.caFile, timeoutMs: PEER_TIMEOUT_MS, leaseMs: 60_000 } }));
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await peer?.stop();
});

describe('POP3 from Dovecot', () => {
  it('collects over STARTTLS, leaving a copy: a second check imports nothing and the server keeps every mail', async () => {
    peer.addUser('ann', 'ann-pass');
    for (let i = 1; i <= 3; i++) peer.seed('ann', mail(i, 'Leave', i === 2 ? '.a line that starts with a dot\r\n..two dots\r\n' : ''));
    const acc = await create(alice);
    const after = await check(alice, acc.id);
    expect(after.status).toMatchObject({ lastCount: 3, errorKind: null, paused: false });
    expect(after.status.lastBytes).toBeGreaterThan(300);
    expect(await subjects(alice)).toEqual(expect.arrayContaining(['Leave', 'Leave', 'Leave']));
    const again = await check(alice, acc.id);
    expect(again.status.lastCount).toBe(0);
    expect(peer.count('ann')).toBe(3);
    // Dot-stuffing undone (RFC 1939 §3): the stored body has the single-dot lines as sent.
    const two = (await inbox(alice)).find((m) => m.subject === 'Leave' && m.from.address === 'far2@remote.test')!;
    const read = await s.get<{ content: string }>('/h5/read/index', { mid: two.id }, alice);
    expect(JSON.stringify(read.data)).toContain('.a line that starts with a dot');
    expect(JSON.stringify(read.data)).toContain('..two dots');
    await s.post('/h5/collect/delete', { id: acc.id }, alice);
  });

  it('re-adding the same mailbox with "leave a copy" imports 0 duplicates, over POP3 and over IMAP', async () => {
    const before = (await subjects(alice)).length;
    const pop = await create(alice, { port: peer.ports.pop3s, tls: 'tls' });
    expect((await check(alice, pop.id)).status.lastCount).toBe(0);
    const imap = await create(alice, { protocol: 'imap', port: peer.ports.imaps, tls: 'tls' });
    expect((await check(alice, imap.id)).status).toMatchObject({ lastCount: 0, errorKind: null });
    expect((await subjects(alice)).length).toBe(before);
    await s.post('/h5/collect/delete', { id: pop.id }, alice);
    await s.post('/h5/collect/delete', { id: imap.id }, alice);
  });

  it('collects over implicit TLS without leaving a copy: the server is emptied only after the mail is stored', async () => {
    peer.addUser('ben', 'ben-pass');
    for (let i = 1; i <= 4; i++) peer.seed('ben', mail(i, 'Take'));
    const acc = await create(bob, { port: peer.ports.pop3s, tls: 'tls', username: 'ben', password: 'ben-pass', leaveCopy: 0 });
    expect((await check(bob, acc.id)).status.lastCount).toBe(4);
    expect(peer.count('ben')).toBe(0);
    expect((await subjects(bob)).filter((x) => x === 'Take')).toHaveLength(4);
    peer.seed('ben', mail(5, 'Take'));
    expect((await check(bob, acc.id)).status.lastCount).toBe(1);
    expect(peer.count('ben')).toBe(0);
  });
});

describe('IMAP from Dovecot', () => {
  it('collects new UIDs only, and rescans without duplicates when UIDVALIDITY changes', async () => {
    peer.addUser('cat', 'cat-pass');
    for (let i = 1; i <= 3; i++) peer.seed('cat', mail(i, 'Imap'));
    const acc = await create(bob, { protocol: 'imap', port: peer.ports.imap, tls: 'starttls', username: 'cat', password: 'cat-pass', folder: '0' });
    expect((await check(bob, acc.id)).status.lastCount).toBe(3);
    peer.seed('cat', mail(4, 'Imap'));
    expect((await check(bob, acc.id)).status.lastCount).toBe(1);
    const state = async () => (await s.rt.services.db.withTables<{ collect_imap_state: { account_id: number; uidvalidity: number } }>()
      .selectFrom('collect_imap_state').select('uidvalidity').where('account_id', '=', Number(acc.id)).executeTakeFirstOrThrow()).uidvalidity;
    const oldValidity = Number(await state());
    peer.resetUidValidity('cat');
    peer.seed('cat', mail(5, 'Imap'));
    const after = await check(bob, acc.id);
    expect(after.status).toMatchObject({ lastCount: 1, errorKind: null });
    expect(Number(await state())).not.toBe(oldValidity);
    expect((await subjects(bob)).filter((x) => x === 'Imap')).toHaveLength(5);
    expect(peer.count('cat')).toBe(5);
  });

  it('files into the chosen folder', async () => {
    const folder = (await s.post<{ mid: string }>('/h5/mboxop/create-folder', { name: 'Collected' }, alice)).data;
    peer.addUser('dan', 'dan-pass');
    peer.seed('dan', mail(1, 'Foldered'));
    const acc = await create(alice, { protocol: 'imap', port: peer.ports.imaps, tls: 'tls', username: 'dan', password: 'dan-pass', folder: folder.mid, leaveCopy: 0 });
    expect((await check(alice, acc.id)).status.lastCount).toBe(1);
    expect(await subjects(alice, folder.mid)).toEqual(['Foldered']);
    expect(peer.count('dan')).toBe(0);
  });
});
