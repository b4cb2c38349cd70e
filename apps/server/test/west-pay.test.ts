import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WestLedgerEntry, WestMe, WestPayment, WestTopupStarted } from '@mailwing/shared';
import { startTestServer, type TestServer } from './harness.js';
import { startAlipayStandIn, type AlipayStandIn } from './alipay-standin.js';
import { hashPassword } from '../src/features/account/password.js';
import { westTokenHash } from '../src/features/west-account/west-account.service.js';
import { withWestTables } from '../src/features/west-account/tables.js';
import { rsa2Verify, signContent } from '../src/features/west-pay/alipay.js';
import { createPublicKey, createPrivateKey } from 'node:crypto';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let s: TestServer;
let ali: AlipayStandIn;
let token: string;
let customerId: number;

const wdb = () => withWestTables(s.rt.services.db);

beforeAll(async () => {
  ali = await startAlipayStandIn();
  s = await startTestServer({
    west: { mailDomain: undefined, sandboxPay: true, publicUrl: 'http://shop.example', alipay: { appId: ali.appId, privateKey: ali.appPrivatePem, publicKey: ali.alipayPublicPem, gateway: ali.url } },
  });
  // A customer with a west session, made directly: registering is west-account.test.ts's subject.
  const c = await wdb().insertInto('customers').values({ email: 'buyer@example.com', password_hash: await hashPassword('x-pass-123') }).returning('id').executeTakeFirstOrThrow();
  customerId = c.id;
  token = 'test-west-token-0123456789abcdef0123456789';
  await wdb().insertInto('west_sessions').values({ customer_id: customerId, token_hash: westTokenHash(token), ip: '', user_agent: '', expires_at: new Date(Date.now() + 86_400_000) }).execute();
});
afterAll(async () => {
  await s.stop();
  await ali.close();
});

const balance = async () => (await s.get<WestMe>('/h5/west/me', {}, token)).data.balanceCents;
const topup = async (amountCents: number, provider = 'alipay') => (await s.post<WestTopupStarted>('/h5/west/topup', { provider, amountCents }, token)).data;
const notify = async (params: Record<string, string>) => {
  const res = await fetch(`${s.base}/h5/west/pay/notify/alipay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' }, body: new URLSearchParams(params).toString() });
  return res.text();
};
const callbacks = (outTradeNo: string) => wdb().selectFrom('west_payment_callbacks').selectAll().where('out_trade_no', '=', outTradeNo).orderBy('id').execute();

describe('alipay page payment', () => {
  it('sends the customer to the gateway with an RSA2-signed request', async () => {
    const t = await topup(1234);
    const url = new URL(t.payUrl);
    expect(`${url.origin}${url.pathname}`).toBe(ali.url);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ method: 'alipay.trade.page.pay', app_id: ali.appId, sign_type: 'RSA2', charset: 'utf-8', notify_url: 'http://shop.example/h5/west/pay/notify/alipay' });
    expect(JSON.parse(params.biz_content!)).toMatchObject({ out_trade_no: t.outTradeNo, total_amount: '12.34', product_code: 'FAST_INSTANT_TRADE_PAY' });
    const appPublic = createPublicKey(createPrivateKey(ali.appPrivatePem));
    expect(rsa2Verify(signContent(params, ['sign']), params.sign!, appPublic)).toBe(true);
  });

  it('50 concurrent replays of one paid callback credit once, and each gets "success"', async () => {
    const before = await balance();
    const t = await topup(5000);
    const params = ali.notification({ outTradeNo: t.outTradeNo, tradeNo: '2026112422001400000000000001', amount: '50.00' });
    const answers = await Promise.all(Array.from({ length: 50 }, () => notify(params)));
    expect(new Set(answers)).toEqual(new Set(['success']));
    expect(await balance()).toBe(before + 5000);
    const stored = await callbacks(t.outTradeNo);
    expect(stored).toHaveLength(50);
    expect(stored.every((c) => c.verified)).toBe(true);
    expect(stored.filter((c) => c.outcome === 'credited')).toHaveLength(1);
    expect(stored.filter((c) => c.outcome === 'duplicate')).toHaveLength(49);
    // The same callback an hour later: same answer, nothing changes.
    expect(await notify(params)).toBe('success');
    expect(await balance()).toBe(before + 5000);
    const ledger = await s.get<{ list: WestLedgerEntry[] }>('/h5/west/ledger', {}, token);
    expect(ledger.data.list.filter((e) => e.kind === 'topup')).toHaveLength(1);
    expect(await s.rt.services.westPay.checkBalances()).toEqual([]);
  });

  it('refuses a bad signature, and stores it', async () => {
    const before = await balance();
    const t = await topup(700);
    expect(await notify(ali.notification({ outTradeNo: t.outTradeNo, tradeNo: '2026112422001400000000000002', amount: '7.00', forge: true }))).toBe('failure');
    const tampered = ali.notification({ outTradeNo: t.outTradeNo, tradeNo: '2026112422001400000000000002', amount: '0.07' });
    tampered.total_amount = '7.00';
    expect(await notify(tampered)).toBe('failure');
    expect(await balance()).toBe(before);
    const stored = await callbacks(t.outTradeNo);
    expect(stored.map((c) => [c.verified, c.outcome])).toEqual([[false, 'bad_signature'], [false, 'bad_signature']]);
    expect(stored[0]!.raw).toContain('out_trade_no=');
  });

  it('refuses an amount or an app id that does not match', async () => {
    const before = await balance();
    const t = await topup(800);
    expect(await notify(ali.notification({ outTradeNo: t.outTradeNo, tradeNo: '2026112422001400000000000003', amount: '0.01' }))).toBe('failure');
    expect(await notify(ali.notification({ outTradeNo: t.outTradeNo, tradeNo: '2026112422001400000000000003', amount: '8.00', appId: '2021999999999999' }))).toBe('failure');
    expect(await balance()).toBe(before);
    expect((await callbacks(t.outTradeNo)).map((c) => c.outcome)).toEqual(['amount_mismatch', 'app_mismatch']);
    // The right one still works afterwards.
    expect(await notify(ali.notification({ outTradeNo: t.outTradeNo, tradeNo: '2026112422001400000000000003', amount: '8.00' }))).toBe('success');
    expect(await balance()).toBe(before + 800);
  });

  it('reconciles a lost callback by querying the trade after 15 minutes', async () => {
    const before = await balance();
    const t = await topup(2500);
    ali.trades.set(t.outTradeNo, { tradeNo: '2026112422001400000000000004', amount: '25.00', status: 'TRADE_SUCCESS' });
    const pay = s.rt.services.westPay;
    // Not yet due: nothing is asked.
    expect(await pay.reconcileDue(new Date(Date.now() + 14 * 60_000))).toBe(0);
    expect(await pay.reconcileDue(new Date(Date.now() + 16 * 60_000))).toBeGreaterThanOrEqual(1);
    expect(await balance()).toBe(before + 2500);
    expect(ali.badRequests).toBe(0);
    const q = (await callbacks(t.outTradeNo)).find((c) => c.provider === 'alipay:query' && c.outcome === 'credited');
    expect(q?.verified).toBe(true);
    // The late callback afterwards changes nothing.
    expect(await notify(ali.notification({ outTradeNo: t.outTradeNo, tradeNo: '2026112422001400000000000004', amount: '25.00' }))).toBe('success');
    expect(await balance()).toBe(before + 2500);
    // A payment never made is asked again later, then closed after a day.
    const never = await topup(900);
    await pay.reconcileDue(new Date(Date.now() + 16 * 60_000));
    expect((await wdb().selectFrom('west_payments').select('status').where('out_trade_no', '=', never.outTradeNo).executeTakeFirstOrThrow()).status).toBe('pending');
    await pay.reconcileDue(new Date(Date.now() + 25 * 3600_000));
    expect((await wdb().selectFrom('west_payments').select('status').where('out_trade_no', '=', never.outTradeNo).executeTakeFirstOrThrow()).status).toBe('closed');
    expect(await pay.checkBalances()).toEqual([]);
  });
});

describe('sandbox', () => {
  it('tops up through the sandbox, once, for its owner only', async () => {
    const before = await balance();
    const t = await topup(10_000, 'sandbox');
    expect(t.payUrl).toContain('sandbox=');
    const paid = await s.post<WestPayment>('/h5/west/pay/sandbox', { outTradeNo: t.outTradeNo }, token);
    expect(paid.data.status).toBe('paid');
    await s.post('/h5/west/pay/sandbox', { outTradeNo: t.outTradeNo }, token);
    expect(await balance()).toBe(before + 10_000);
    expect(await s.post('/h5/west/pay/sandbox', { outTradeNo: 'W-not-mine' }, token)).toMatchObject({ code: 404 });
    expect(await s.rt.services.westPay.checkBalances()).toEqual([]);
  });

  it('the check finds a balance that drifted from its ledger', async () => {
    await wdb().updateTable('customers').set({ balance_cents: 1 }).where('id', '=', customerId).execute();
    expect(await s.rt.services.westPay.checkBalances()).toEqual([expect.objectContaining({ customerId, balanceCents: 1 })]);
  });
});
