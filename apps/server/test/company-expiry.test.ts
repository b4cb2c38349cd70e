import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/features/account/password.js';
import { extendCompany, proRataCents, statusAt } from '../src/features/company-life/expiry.service.js';
import { enqueueProvision } from '../src/features/company-life/provision.service.js';
import { rawSmtp, startTestServer, type TestServer } from './harness.js';
import { addCustomer, lifeNode } from './company-life-helpers.js';

// Expiry (issue 19 §6) with a clock the test moves: reminders at 30, 7 and 1 day before, each
// sent once; read-only at the expiry (mail arrives, cannot be sent); suspended 15 days later
// (no login, inbound SMTP refused with 4xx); a renewal from the later of now and the expiry.

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); }, 240_000);
afterAll(async () => s?.stop(), 120_000);

const DAY = 86_400_000;
const db = () => s.rt.services.db;
const node = (now: () => Date) => lifeNode(s.rt.services, now);
const outboxTo = async (rcpt: string) =>
  (await sql<{ idempotency_key: string }>`SELECT idempotency_key FROM outbox WHERE rcpt = ${rcpt} ORDER BY id`.execute(db())).rows.map((r) => r.idempotency_key);
const statusOf = async (id: number) => (await db().selectFrom('companies').select(['status', 'expires_at', 'seats']).where('id', '=', id).executeTakeFirstOrThrow());
const rcptReply = async (rcpt: string): Promise<string> => {
  let answer = '';
  await rawSmtp(s.smtpPort, async (io) => {
    await io.reply();
    io.send('EHLO outside.test');
    await io.reply();
    io.send('MAIL FROM:<someone@outside.test>');
    await io.reply();
    io.send(`RCPT TO:<${rcpt}>`);
    answer = await io.reply();
    io.send('QUIT');
  });
  return answer;
};

describe('expiry', () => {
  it('reminds at 30, 7 and 1 days once each, goes read-only, then suspended, and a renewal restores it', async () => {
    const customerId = await addCustomer(db(), 'owner@outside.test');
    const t0 = Date.now();
    const expiry = new Date(t0 + 40 * DAY);
    let now = t0;
    const a = node(() => new Date(now));
    const b = node(() => new Date(now));
    await db().transaction().execute(async (trx) => enqueueProvision(trx, {
      orderId: 7001, customerId, companyName: 'Expiring Co', domain: 'expiring.test', plan: 'standard', seats: 5, expiresAt: expiry,
      adminLocalPart: 'boss', adminPasswordHash: await hashPassword('boss-pass-1'),
    }, new Date(now)));
    await a.tick();
    const company = (await db().selectFrom('companies').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow()).id;
    const boss = await s.login('boss@expiring.test', 'boss-pass-1');
    const reminders = async () => (await s.get<{ list: { subject: string }[] }>('/h5/mail/list', { mid: '0', page: 1, size: 50 }, boss)).data.list
      .map((m) => m.subject).filter((x) => x.includes('expires in')).sort();

    // Nothing 31 days before.
    now = expiry.getTime() - 31 * DAY;
    await a.tick();
    expect(await reminders()).toEqual([]);
    for (const d of [30, 7, 1]) {
      now = expiry.getTime() - d * DAY + 60_000;
      await Promise.all([a.tick(), b.tick()]);
      await a.tick();
    }
    expect(await reminders()).toEqual(['企业邮箱将于 1 天后到期 expiring.test expires in 1 day', '企业邮箱将于 30 天后到期 expiring.test expires in 30 days', '企业邮箱将于 7 天后到期 expiring.test expires in 7 days']);
    const key = Math.floor(expiry.getTime() / 1000);
    expect(await outboxTo('owner@outside.test')).toEqual([
      expect.stringContaining('provision-'), `system:expiry-${company}-${key}-30:owner@outside.test`,
      `system:expiry-${company}-${key}-7:owner@outside.test`, `system:expiry-${company}-${key}-1:owner@outside.test`,
    ]);
    expect((await statusOf(company)).status).toBe('active');

    // Read-only: login works, sending is refused, mail still arrives.
    now = expiry.getTime() + 1_000;
    await a.tick();
    expect((await statusOf(company)).status).toBe('readonly');
    const sent = await s.post('/h5/write/send', { to: 'alice@demo.test', subject: 'after expiry', text: 'x' }, boss);
    expect(sent).toMatchObject({ code: 403, reason: 'company.read_only' });
    await s.send({ from: 'someone@outside.test', to: 'boss@expiring.test', subject: 'Still arrives', text: 'x' });
    const list = await s.get<{ list: { subject: string }[] }>('/h5/mail/list', { mid: '0', page: 1, size: 50 }, boss);
    expect(list.data.list.map((m) => m.subject)).toContain('Still arrives');
    await s.login('boss@expiring.test', 'boss-pass-1');

    // Suspended 15 days after: no login, sessions end, inbound gets a temporary refusal.
    now = expiry.getTime() + 15 * DAY - 1_000;
    await a.tick();
    expect((await statusOf(company)).status).toBe('readonly');
    now = expiry.getTime() + 15 * DAY;
    await a.tick();
    expect((await statusOf(company)).status).toBe('suspended');
    expect(await s.post('/h5/login/h5', { email: 'boss@expiring.test', password: 'boss-pass-1' })).toMatchObject({ code: 403, reason: 'login.company_suspended' });
    expect(await s.post('/h5/login/h5', { email: 'boss@expiring.test', password: 'wrong-pass' })).toMatchObject({ code: 403, reason: 'login.bad_credentials' });
    expect((await s.get('/h5/mbox/index', {}, boss)).code).toBe(401);
    expect(await rcptReply('boss@expiring.test')).toMatch(/^450 4\.2\.1/);
    // Other companies are untouched.
    expect(await rcptReply('alice@demo.test')).toMatch(/^250/);

    // Renewal while suspended counts from now, and works at once.
    const renewed = await db().transaction().execute((trx) => extendCompany(trx, company, { years: 1, customerId }, new Date(now)));
    const oneYear = new Date(now);
    oneYear.setUTCFullYear(oneYear.getUTCFullYear() + 1);
    expect(renewed).toMatchObject({ status: 'active', seats: 5 });
    expect(renewed.expiresAt.toISOString()).toBe(oneYear.toISOString());
    expect(await rcptReply('boss@expiring.test')).toMatch(/^250/);
    await s.login('boss@expiring.test', 'boss-pass-1');
    // Before the expiry it counts from the expiry; seats add up.
    const again = await db().transaction().execute((trx) => extendCompany(trx, company, { years: 2, addSeats: 3, customerId }, new Date(now)));
    const threeYears = new Date(now);
    threeYears.setUTCFullYear(threeYears.getUTCFullYear() + 3);
    expect(again.expiresAt.toISOString()).toBe(threeYears.toISOString());
    expect(again.seats).toBe(8);
    // The new expiry gets its own reminders.
    now = threeYears.getTime() - 7 * DAY + 1_000;
    await a.tick();
    expect((await reminders()).filter((x) => x.includes('7 days'))).toHaveLength(2);
  });

  it('refuses another customer\'s company and bad input; prices seats pro rata', async () => {
    const mine = await addCustomer(db(), 'mine@outside.test');
    const other = await addCustomer(db(), 'other@outside.test');
    await db().transaction().execute(async (trx) => enqueueProvision(trx, {
      orderId: 7002, customerId: mine, companyName: 'Mine', domain: 'mine.test', plan: 'standard', seats: 2, expiresAt: new Date(Date.now() + 100 * DAY), adminLocalPart: 'admin',
    }));
    await s.rt.services.companyLife.tick();
    const id = (await db().selectFrom('companies').select('id').where('customer_id', '=', mine).executeTakeFirstOrThrow()).id;
    await expect(db().transaction().execute((trx) => extendCompany(trx, id, { years: 1, customerId: other }))).rejects.toMatchObject({ reason: 'company.not_found' });
    await expect(db().transaction().execute((trx) => extendCompany(trx, id, { years: 0, customerId: mine }))).rejects.toMatchObject({ reason: 'renew.nothing' });
    await expect(db().transaction().execute((trx) => extendCompany(trx, id, { years: 1.5, customerId: mine }))).rejects.toMatchObject({ reason: 'renew.years_invalid' });
    expect((await statusOf(id)).seats).toBe(2);
    // The demo company (no customer) is not for sale.
    const demo = (await db().selectFrom('companies').select('id').where('customer_id', 'is', null).executeTakeFirstOrThrow()).id;
    await expect(db().transaction().execute((trx) => extendCompany(trx, demo, { years: 1 }))).rejects.toMatchObject({ reason: 'company.not_found' });

    const now = new Date('2027-01-01T00:00:00Z');
    expect(proRataCents(36_500, 2, new Date('2027-07-02T00:00:00Z'), now)).toBe(36_400);
    expect(proRataCents(36_500, 2, new Date('2026-07-02T00:00:00Z'), now)).toBe(0);
    expect(statusAt(null, now)).toBe('active');
    expect(statusAt(new Date(now.getTime() - 14 * DAY), now)).toBe('readonly');
    expect(statusAt(new Date(now.getTime() - 15 * DAY), now)).toBe('suspended');
  });
});
