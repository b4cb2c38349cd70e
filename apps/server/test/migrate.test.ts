import type { MigrateAccount, MigrateDetail, MigrateImportResult, MigrateList, MigrateTestResult } from '@mailwing/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCollectKey, SecretBox } from '../src/features/collect/secret-box.js';
import { MigrateService } from '../src/features/migrate/migrate.service.js';
import { AddressPolicy } from '../src/net/ssrf.js';
import { startDovecot, type DovecotPeer } from './dovecot-peer.js';
import { startDemo, type TestServer } from './harness.js';

// Mail migration (issue 17, scope 8) from a real Dovecot on loopback: 2,000 messages in
// 5 folders, progress per folder, a run stopped half-way and resumed, a re-run that copies
// nothing, "finalise", a folder gone missing, and who may touch which job.

let peer: DovecotPeer;
let s: TestServer;
let admin: string;
let alice: string;
let otherAdmin: string;
const N_PER_FOLDER = 400;
const FOLDERS = ['INBOX', 'Sent', 'Drafts', 'Archive', 'Projects.2026'];
const LEASE_MS = 60_000;
/** The old mailbox's login, an address as on a real provider. */
const ANN = 'ann@old.test';

const remote = (folder: string, n: number) =>
  `From: Old Sender <old${n}@old.test>\r\nTo: ann@old.test\r\nSubject: ${folder} ${n}\r\nMessage-ID: <${folder}-${n}@old.test>\r\n` +
  `Date: Mon, 02 Nov 2026 10:00:00 +0000\r\n\r\n${'Old mail body line.\r\n'.repeat(8)}`;

function migrator(now: () => Date): MigrateService {
  const sv = s.rt.services;
  return new MigrateService({
    db: sv.db, ingest: sv.ingest, box: new SecretBox(loadCollectKey(undefined, s.dataDir)), maxMessageBytes: 10 * 1024 * 1024,
    cfg: { key: undefined, allowPrivate: true, caFile: peer.caFile, timeoutMs: 20_000, leaseMs: LEASE_MS }, policy: new AddressPolicy({ allowPrivate: true }), now,
  });
}
const server = () => ({ host: peer.host, port: peer.ports.imaps, tls: 'tls' });
const list = async () => (await s.get<MigrateList>('/h5/admin/migrate/list', {}, admin)).data.list;
const detail = async (id: string) => (await s.get<MigrateDetail>('/h5/admin/migrate/detail', { id }, admin)).data;
/** Alice's mail per folder name, and how many distinct Message-IDs she has. */
async function aliceMail(): Promise<{ byFolder: Record<string, number>; total: number; distinct: number; seen: number }> {
  const db = s.rt.services.db;
  const r = await sql<{ name: string; n: number; d: number; seen: number }>`
    SELECT f.name, count(*)::int AS n, count(DISTINCT c.message_id)::int AS d, count(*) FILTER (WHERE m.seen)::int AS seen
    FROM messages m JOIN users u ON u.id = m.user_id JOIN folders f ON f.user_id = m.user_id AND f.mid = m.folder_mid
    JOIN mail_contents c ON c.id = m.content_id
    WHERE u.email = 'alice@demo.test' AND c.message_id LIKE '%@old.test>' GROUP BY f.name`.execute(db);
  const d = await sql<{ d: number }>`SELECT count(DISTINCT c.message_id)::int AS d FROM messages m JOIN users u ON u.id = m.user_id JOIN mail_contents c ON c.id = m.content_id
    WHERE u.email = 'alice@demo.test' AND c.message_id LIKE '%@old.test>'`.execute(db);
  return { byFolder: Object.fromEntries(r.rows.map((x) => [x.name, x.n])), total: r.rows.reduce((n, x) => n + x.n, 0), distinct: d.rows[0]!.d, seen: r.rows.reduce((n, x) => n + x.seen, 0) };
}

beforeAll(async () => {
  peer = await startDovecot();
  ({ s, alice } = await startDemo({ collect: { key: undefined, allowPrivate: true, caFile: peer.caFile, timeoutMs: 20_000, leaseMs: LEASE_MS } }));
  admin = await s.login('admin@demo.test');
  const sv = s.rt.services;
  const other = await sv.companies.createCompany({ name: 'Other Co', domain: 'other-migrate.test' });
  await sv.companies.createUser(other, { email: 'boss@other-migrate.test', password: 'other-pass-1', name: 'Boss', role: 'admin', departmentId: other.rootDepartmentId });
  otherAdmin = await s.login('boss@other-migrate.test', 'other-pass-1');
  peer.addUser(ANN, 'ann-pass');
  for (const f of FOLDERS) {
    for (let i = 1; i <= N_PER_FOLDER; i++) {
      // Mail in the old Sent was read there; it stays read here.
      if (f === 'INBOX') peer.seed(ANN, remote(f, i));
      else peer.seedFolder(ANN, f, remote(f, i), f === 'Sent');
    }
  }
}, 240_000);
afterAll(async () => {
  await s?.stop();
  await peer?.stop();
});

describe('mail migration from Dovecot', () => {
  let id = '';

  it('tests one account: lists its folders and where each goes; a wrong password is migrate.auth', async () => {
    const r = await s.post<MigrateTestResult>('/h5/admin/migrate/test', { ...server(), username: ANN, password: 'ann-pass' }, admin);
    expect(r.code).toBe(200);
    const byName = Object.fromEntries(r.data.folders.map((f) => [f.name, f]));
    expect(byName.INBOX).toMatchObject({ target: 'Inbox', messages: N_PER_FOLDER });
    expect(byName.Sent).toMatchObject({ target: 'Sent', messages: N_PER_FOLDER });
    expect(byName.Drafts!.target).toBe('Drafts');
    expect(byName.Archive!.target).toBe('Archive');
    expect(byName['Projects.2026']!.target).toBe('Projects/2026');
    const bad = await s.post('/h5/admin/migrate/test', { ...server(), username: ANN, password: 'wrong' }, admin);
    expect(bad.code).toBe(422);
    expect(JSON.stringify(bad)).toContain('migrate.auth');
  });

  it('imports a CSV: good lines are queued, bad ones reported by line number', async () => {
    const csv = 'old address,password,new mailbox\nann@old.test,ann-pass,alice@demo.test\nnot-an-address,x,bob@demo.test\nann2@old.test,p,nobody@demo.test\nann3@old.test,,bob@demo.test\n';
    const r = await s.post<MigrateImportResult>('/h5/admin/migrate/import', { ...server(), csv }, admin);
    expect(r.code).toBe(200);
    expect(r.data.errors).toEqual([{ line: 3, reason: 'migrate.bad_line' }, { line: 4, reason: 'migrate.no_such_mailbox' }, { line: 5, reason: 'migrate.no_password' }]);
    expect(r.data.created).toBe(1);
    const [acc] = await list();
    expect(acc).toMatchObject({ oldAddress: 'ann@old.test', newAddress: 'alice@demo.test', state: 'queued' });
    id = acc!.id;
    // The password is kept encrypted, never as typed.
    const row = await sql<{ secret: string }>`SELECT secret FROM migrate_accounts WHERE id = ${Number(id)}`.execute(s.rt.services.db);
    expect(row.rows[0]!.secret).toMatch(/^v1:/);
    expect(row.rows[0]!.secret).not.toContain('ann-pass');
  });

  it('moves 2,000 messages in 5 folders; stopped half-way, it resumes without duplicates; progress per folder', async () => {
    let now = new Date('2026-12-01T00:00:00Z');
    const first = migrator(() => now);
    const running = first.runDue();
    // Stop it once a few hundred are in, as a kill would.
    for (;;) {
      const a = (await list())[0]!;
      if (a.messagesDone >= 300) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    first.abortAll();
    await running;
    const mid = (await list())[0]!;
    expect(mid.state).toBe('running');
    const partial = await aliceMail();
    expect(partial.total).toBeGreaterThan(0);
    expect(partial.total).toBeLessThan(FOLDERS.length * N_PER_FOLDER);

    // Another process, after the lease ran out.
    now = new Date(now.getTime() + LEASE_MS + 1);
    const started = Date.now();
    expect(await migrator(() => now).runDue()).toBe(1);
    const secs = (Date.now() - started) / 1000;
    const done = await detail(id);
    expect(done.account).toMatchObject({ state: 'done', reason: null, runs: 2 });
    expect(done.folders.map((f) => [f.name, f.target, f.state])).toEqual(expect.arrayContaining([
      ['INBOX', 'Inbox', 'done'], ['Sent', 'Sent', 'done'], ['Drafts', 'Drafts', 'done'], ['Archive', 'Archive', 'done'], ['Projects.2026', 'Projects/2026', 'done'],
    ]));
    for (const f of done.folders) {
      expect(f.messagesDone).toBe(f.messagesTotal);
      expect(f.bytesDone).toBe(f.bytesTotal);
    }
    const mail = await aliceMail();
    expect(mail.total).toBe(FOLDERS.length * N_PER_FOLDER);
    expect(mail.distinct).toBe(FOLDERS.length * N_PER_FOLDER);
    expect(mail.byFolder).toMatchObject({ Inbox: N_PER_FOLDER, Sent: N_PER_FOLDER, Drafts: N_PER_FOLDER, Archive: N_PER_FOLDER, 'Projects/2026': N_PER_FOLDER });
    expect(mail.seen).toBe(N_PER_FOLDER);
    console.log(JSON.stringify({ resumed: FOLDERS.length * N_PER_FOLDER - partial.total, seconds: secs }));
  }, 900_000);

  it('a re-run copies 0; finalise after the MX switch copies only the new mail', async () => {
    const m = migrator(() => new Date());
    expect((await s.post<{ queued: number }>('/h5/admin/migrate/rerun', {}, admin)).data.queued).toBe(1);
    expect(await m.runDue()).toBe(1);
    const again = await detail(id);
    expect(again.account.state).toBe('done');
    expect(again.folders.every((f) => f.copied === 0 && f.messagesTotal === 0)).toBe(true);
    expect((await aliceMail()).total).toBe(FOLDERS.length * N_PER_FOLDER);

    for (let i = 1; i <= 3; i++) peer.seed(ANN, remote('Late', i));
    expect((await s.post<{ queued: number }>('/h5/admin/migrate/finalise', { id }, admin)).data.queued).toBe(1);
    await m.runDue();
    const fin = await detail(id);
    expect(fin.account.finalise).toBe(true);
    expect(fin.account.finalisedAt).not.toBeNull();
    expect(fin.folders.find((f) => f.name === 'INBOX')!.copied).toBe(3);
    expect((await aliceMail()).byFolder.Inbox).toBe(N_PER_FOLDER + 3);
  });

  it('a folder gone from the old server fails the account loudly', async () => {
    peer.removeFolder(ANN, 'Archive');
    await s.post('/h5/admin/migrate/rerun', { id }, admin);
    await migrator(() => new Date()).runDue();
    const r = await detail(id);
    expect(r.account).toMatchObject({ state: 'failed', reason: 'migrate.folder_missing' });
    expect(r.account.reply).toContain('Archive');
    expect(r.folders.find((f) => f.name === 'Archive')!.state).toBe('failed');
  });

  it('refuses ordinary users (403) and hides jobs from another company (404)', async () => {
    for (const [route, body] of [['/h5/admin/migrate/rerun', {}], ['/h5/admin/migrate/finalise', {}], ['/h5/admin/migrate/delete', { id }],
      ['/h5/admin/migrate/import', { ...server(), csv: 'a@b.test,p,alice@demo.test' }], ['/h5/admin/migrate/test', { ...server(), username: ANN, password: 'ann-pass' }]] as const) {
      const r = await s.post(route, body as Record<string, string | number>, alice);
      expect(r.code, route).toBe(403);
      expect(JSON.stringify(r)).toContain('admin.required');
    }
    expect((await s.get('/h5/admin/migrate/list', {}, alice)).code).toBe(403);
    expect((await s.get('/h5/admin/migrate/detail', { id }, alice)).code).toBe(403);
    expect((await s.get('/h5/admin/migrate/detail', { id }, otherAdmin)).code).toBe(404);
    expect((await s.post('/h5/admin/migrate/rerun', { id }, otherAdmin)).code).toBe(404);
    expect((await s.post('/h5/admin/migrate/delete', { id }, otherAdmin)).code).toBe(404);
    expect((await s.get<MigrateList>('/h5/admin/migrate/list', {}, otherAdmin)).data.list).toEqual([]);
    // Another company's CSV cannot name our mailboxes.
    const x = await s.post<MigrateImportResult>('/h5/admin/migrate/import', { ...server(), csv: 'a@b.test,p,alice@demo.test' }, otherAdmin);
    expect(x.data).toEqual({ created: 0, errors: [{ line: 1, reason: 'migrate.no_such_mailbox' }] });
    expect((await list())).toHaveLength(1);
  });
});

export type { MigrateAccount };
