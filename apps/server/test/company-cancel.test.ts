import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/features/account/password.js';
import { cancellationStatus, leftoverBalance, requestCancellation, undoCancellation } from '../src/features/company-life/cancel.service.js';
import { ensureExport, exportsOfCustomer, requestExport } from '../src/features/company-life/export.service.js';
import { enqueueProvision } from '../src/features/company-life/provision.service.js';
import { startTestServer, type TestServer } from './harness.js';
import { addCustomer, lifeNode } from './company-life-helpers.js';

// Cancellation (issue 19 §7): a request waits 30 days with undo, then a durable job deletes the
// customer's companies — rows and the blobs nothing else references — and nothing of another
// customer, even a mail blob both customers' mailboxes share. A balance left over is reported.

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); }, 240_000);
afterAll(async () => s?.stop(), 120_000);

const DAY = 86_400_000;
const db = () => s.rt.services.db;
const count = async (q: ReturnType<typeof sql<{ n: number }>>) => Number((await q.execute(db())).rows[0]!.n);
const companyRows = (customerId: number) => count(sql<{ n: number }>`SELECT count(*)::int AS n FROM companies WHERE customer_id = ${customerId}`);
const mailOf = (domain: string) => count(sql<{ n: number }>`SELECT count(*)::int AS n FROM messages m JOIN users u ON u.id = m.user_id WHERE u.email LIKE ${`%@${domain}`}`);
const blobOf = async (subject: string) => (await sql<{ blob_hash: string }>`SELECT blob_hash FROM mail_contents WHERE subject = ${subject} LIMIT 1`.execute(db())).rows[0]?.blob_hash;

async function buy(customerId: number, orderId: number, domain: string): Promise<void> {
  await db().transaction().execute(async (trx) => enqueueProvision(trx, {
    orderId, customerId, companyName: domain, domain, plan: 'standard', seats: 5, expiresAt: new Date(Date.now() + 300 * DAY),
    adminLocalPart: 'admin', adminPasswordHash: await hashPassword('cancel-pass-1'),
  }));
  await s.rt.services.companyLife.tick();
}

describe('cancellation', () => {
  it('waits 30 days with undo, then deletes the customer\'s companies and only their blobs', async () => {
    const a = await addCustomer(db(), 'a@outside.test', 12_345);
    const b = await addCustomer(db(), 'b@outside.test');
    await buy(a, 6001, 'gone.test');
    await buy(b, 6002, 'stays.test');
    const adminA = await s.login('admin@gone.test', 'cancel-pass-1');
    const adminB = await s.login('admin@stays.test', 'cancel-pass-1');
    // Shared: one SMTP mail to both customers' mailboxes (one blob), and a mail A sends B locally.
    await s.send({ from: 'x@outside.test', to: ['admin@gone.test', 'admin@stays.test'], subject: 'Shared blob', text: 'both' });
    expect((await s.post('/h5/write/send', { to: 'admin@stays.test', subject: 'From A to B', text: 'hi B' }, adminA)).code).toBe(200);
    await s.send({ from: 'x@outside.test', to: 'admin@gone.test', subject: 'Only A', text: 'mine alone' });
    const shared = (await blobOf('Shared blob'))!;
    const aToB = (await blobOf('From A to B'))!;
    const onlyA = (await blobOf('Only A'))!;
    const bMailBefore = await mailOf('stays.test');
    const demoMailBefore = await mailOf('demo.test');

    let now = Date.now();
    const node = lifeNode(s.rt.services, () => new Date(now));
    await requestExport(db(), a, new Date(now));
    await node.tick();
    const exportBlob = (await sql<{ blob_hash: string }>`SELECT blob_hash FROM customer_exports WHERE customer_id = ${a}`.execute(db())).rows[0]!.blob_hash;

    // Request, ask again (same one), undo; the grace passes and nothing happens.
    const req = await db().transaction().execute((trx) => requestCancellation(trx, a, new Date(now)));
    expect(req).toMatchObject({ state: 'pending', purgeAt: Math.floor((now + 30 * DAY) / 1000) });
    expect(await db().transaction().execute((trx) => requestCancellation(trx, a, new Date(now + 1000)))).toEqual(req);
    expect(await db().transaction().execute((trx) => undoCancellation(trx, a, new Date(now)))).toMatchObject({ state: 'undone' });
    await expect(db().transaction().execute((trx) => undoCancellation(trx, a, new Date(now)))).rejects.toMatchObject({ reason: 'cancel.not_pending' });
    now += 31 * DAY;
    await node.tick();
    expect(await companyRows(a)).toBe(1);
    await s.login('admin@gone.test', 'cancel-pass-1');

    // Again, for real: not a second before the 30 days.
    await db().transaction().execute((trx) => requestCancellation(trx, a, new Date(now)));
    expect(await cancellationStatus(db(), a)).toMatchObject({ state: 'pending' });
    now += 30 * DAY - 1000;
    await node.tick();
    expect(await companyRows(a)).toBe(1);
    now += 2000;
    await node.tick();
    expect(await cancellationStatus(db(), a)).toMatchObject({ state: 'purged' });
    await expect(db().transaction().execute((trx) => undoCancellation(trx, a, new Date(now)))).rejects.toMatchObject({ reason: 'cancel.not_pending' });

    // A is gone: rows, mailboxes, domain, and the blobs only A referenced (mail and the export archive).
    expect(await companyRows(a)).toBe(0);
    expect(await mailOf('gone.test')).toBe(0);
    expect(await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM domains WHERE name = 'gone.test'`)).toBe(0);
    expect(await s.post('/h5/login/h5', { email: 'admin@gone.test', password: 'cancel-pass-1' })).toMatchObject({ code: 403, reason: 'login.bad_credentials' });
    expect((await s.get('/h5/mbox/index', {}, adminA)).code).toBe(401);
    expect(await s.rt.services.blobs.has(onlyA)).toBe(false);
    expect(await s.rt.services.blobs.has(exportBlob)).toBe(false);
    expect(await blobOf('Only A')).toBeUndefined();

    // B keeps everything, including the blobs it shared with A; so does the demo company.
    expect(await companyRows(b)).toBe(1);
    expect(await mailOf('stays.test')).toBe(bMailBefore);
    expect(await mailOf('demo.test')).toBe(demoMailBefore);
    for (const hash of [shared, aToB]) expect(await s.rt.services.blobs.has(hash)).toBe(true);
    const inbox = await s.get<{ list: { id: string; subject: string }[] }>('/h5/mail/list', { mid: '0', page: 1, size: 50 }, adminB);
    for (const subject of ['Shared blob', 'From A to B']) {
      const m = inbox.data.list.find((x) => x.subject === subject)!;
      const read = await s.get<{ text: string }>('/h5/read/index', { mid: m.id }, adminB);
      expect(read.code, subject).toBe(200);
    }
    expect((await s.post('/h5/write/send', { to: 'admin@stays.test', subject: 'B still sends', text: 'ok' }, adminB)).code).toBe(200);

    // The customer row stays (closed) so the leftover balance is shown, not silently kept.
    expect(await leftoverBalance(db(), a)).toEqual({ balanceCents: 12_345 });
    expect((await db().selectFrom('customers').select('status').where('id', '=', a).executeTakeFirstOrThrow()).status).toBe('closed');
    expect((await db().selectFrom('customers').select('status').where('id', '=', b).executeTakeFirstOrThrow()).status).toBe('active');
  });

  it('cancelling starts with an export: one is asked for unless one is being built or can still be downloaded', async () => {
    const c = await addCustomer(db(), 'c@outside.test');
    let now = Date.now();
    const node = lifeNode(s.rt.services, () => new Date(now));
    const states = async () => (await exportsOfCustomer(db(), c, new Date(now))).map((e) => e.state);
    await db().transaction().execute((trx) => ensureExport(trx, c, new Date(now)));
    expect(await states()).toEqual(['pending']);
    // Being built: not a second one.
    await db().transaction().execute((trx) => ensureExport(trx, c, new Date(now)));
    expect(await states()).toEqual(['pending']);
    await node.tick();
    expect(await states()).toEqual(['done']);
    // Built and its link still good: nothing new.
    await db().transaction().execute((trx) => ensureExport(trx, c, new Date(now)));
    expect(await states()).toEqual(['done']);
    // The link ran out (7 days): a fresh export is asked for.
    now += 8 * DAY;
    await db().transaction().execute((trx) => ensureExport(trx, c, new Date(now)));
    expect(await states()).toEqual(['pending', 'expired']);
  });
});
