import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WestCompany, WestMe, WestOrder, WestPlan, WestQuote, WestTopupStarted } from '@mailwing/shared';
import { startTestServer, type TestServer } from './harness.js';
import { hashPassword } from '../src/features/account/password.js';
import { westTokenHash } from '../src/features/west-account/west-account.service.js';
import { withWestTables } from '../src/features/west-account/tables.js';
import { WEST_DEMO_BALANCE_CENTS } from '../src/features/west-shop/west-demo.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let s: TestServer;
const wdb = () => withWestTables(s.rt.services.db);

beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => s.stop());

async function customer(email: string): Promise<string> {
  const c = await wdb().insertInto('customers').values({ email, password_hash: await hashPassword('x-pass-123') }).returning('id').executeTakeFirstOrThrow();
  const token = `tok-${email}-0123456789abcdef`;
  await wdb().insertInto('west_sessions').values({ customer_id: c.id, token_hash: westTokenHash(token), ip: '', user_agent: '', expires_at: new Date(Date.now() + 86_400_000) }).execute();
  return token;
}
const me = async (t: string) => (await s.get<WestMe>('/h5/west/me', {}, t)).data;
async function topUp(t: string, cents: number) {
  const started = await s.post<WestTopupStarted>('/h5/west/topup', { provider: 'sandbox', amountCents: cents }, t);
  expect((await s.post('/h5/west/pay/sandbox', { outTradeNo: started.data.outTradeNo }, t)).code).toBe(200);
}

describe('buy an enterprise mailbox', () => {
  it('the demo seed has a plan and a customer with a balance', async () => {
    const plans = await s.get<{ list: WestPlan[] }>('/h5/west/plans');
    expect(plans.data.list).toEqual([expect.objectContaining({ code: 'standard', seatYearCents: 6000 })]);
    const demo = await wdb().selectFrom('customers').selectAll().where('email', '=', 'admin@demo.test').executeTakeFirstOrThrow();
    expect(Number(demo.balance_cents)).toBe(WEST_DEMO_BALANCE_CENTS);
  });

  it('quotes, debits and provisions shop.test with 5 seats; the admin logs in; renew and add seats', async () => {
    const t = await customer('shopper@example.com');
    const planId = (await s.get<{ list: WestPlan[] }>('/h5/west/plans')).data.list[0]!.id;
    const q = await s.post<WestQuote>('/h5/west/quote', { planId, seats: 5, years: 1 });
    expect(q.data.priceCents).toBe(30_000);
    const buy = { planId, seats: 5, years: 1, domain: 'shop.test', companyName: 'Shop Co', adminUser: 'admin', adminPassword: 'shop-admin-1', priceCents: 30_000 };
    // No money yet: refused, and nothing was made.
    expect(await s.post('/h5/west/buy', buy, t)).toMatchObject({ code: 403, reason: 'west.balance_low' });
    expect((await s.get<{ list: WestOrder[] }>('/h5/west/orders', {}, t)).data.list).toEqual([]);
    await topUp(t, 50_000);
    // The price the customer saw must still be the price.
    expect(await s.post('/h5/west/buy', { ...buy, priceCents: 100 }, t)).toMatchObject({ code: 422, reason: 'west.price_changed' });
    const order = await s.post<WestOrder>('/h5/west/buy', buy, t);
    expect(order.code).toBe(200);
    expect(order.data).toMatchObject({ kind: 'buy', priceCents: 30_000, seats: 5, provision: 'pending' });
    expect((await me(t)).balanceCents).toBe(20_000);
    // A price change later does not touch the order's snapshot.
    await wdb().updateTable('west_plans').set({ seat_year_cents: 9_000 }).execute();
    await s.rt.services.companyLife.tick();
    const orders = (await s.get<{ list: WestOrder[] }>('/h5/west/orders', {}, t)).data.list;
    expect(orders[0]).toMatchObject({ provision: 'done', priceCents: 30_000 });
    const companies = (await s.get<{ list: WestCompany[] }>('/h5/west/companies', {}, t)).data.list;
    expect(companies).toEqual([expect.objectContaining({ domain: 'shop.test', seats: 5, usedSeats: 1, status: 'active' })]);
    expect(await s.login('admin@shop.test', 'shop-admin-1')).toBeTruthy();

    // Renew 1 year at today's price (5 seats × ¥90): extends from the expiry, not from now.
    const before = companies[0]!.expiresAt!;
    expect(await s.post('/h5/west/renew', { companyId: companies[0]!.id, years: 1, priceCents: 1 }, t)).toMatchObject({ code: 422, reason: 'west.price_changed' });
    const renew = await s.post<WestOrder>('/h5/west/renew', { companyId: companies[0]!.id, years: 1, priceCents: 45_000 }, t);
    expect(renew).toMatchObject({ code: 403, reason: 'west.balance_low' });
    await topUp(t, 100_000);
    expect((await s.post<WestOrder>('/h5/west/renew', { companyId: companies[0]!.id, years: 1, priceCents: 45_000 }, t)).code).toBe(200);
    const after = (await s.get<{ list: WestCompany[] }>('/h5/west/companies', {}, t)).data.list[0]!;
    expect(after.expiresAt! - before).toBeGreaterThanOrEqual(365 * 86_400);
    // Add 2 seats pro rata.
    const sq = await s.get<WestQuote>('/h5/west/seats-quote', { companyId: after.id, seats: 2 }, t);
    expect(sq.data.priceCents).toBeGreaterThan(2 * 9_000);
    expect((await s.post('/h5/west/add-seats', { companyId: after.id, seats: 2, priceCents: sq.data.priceCents }, t)).code).toBe(200);
    expect((await s.get<{ list: WestCompany[] }>('/h5/west/companies', {}, t)).data.list[0]!.seats).toBe(7);
    expect((await me(t)).balanceCents).toBe(20_000 + 100_000 - 45_000 - sq.data.priceCents);
    expect(await s.rt.services.westPay.checkBalances()).toEqual([]);

    // Another customer cannot renew or see this company.
    const other = await customer('other@example.com');
    await topUp(other, 100_000);
    expect(await s.post('/h5/west/renew', { companyId: after.id, years: 1, priceCents: 63_000 }, other)).toMatchObject({ code: 404 });
    expect((await s.get<{ list: WestCompany[] }>('/h5/west/companies', {}, other)).data.list).toEqual([]);
    expect((await me(other)).balanceCents).toBe(100_000);
  });
});
