import { randomBytes } from 'node:crypto';
import type { WestLedgerEntry, WestPayment, WestTopupInput, WestTopupStarted } from '@mailwing/shared';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { AppError, notFound } from '../../errors.js';
import { Code } from '@mailwing/shared';
import { withWestTables, type WestDb } from '../west-account/tables.js';
import type { PaymentProvider } from './provider.js';
import * as repo from './west-pay.repository.js';

/** A payment still pending this long after it began is asked about (issue 19). */
export const RECONCILE_AFTER_MS = 15 * 60_000;
/** Asked about again after 15 min, doubling, up to 6 h; closed a day after it began. */
const RECHECK_MAX_MS = 6 * 3600_000;
const GIVE_UP_MS = 24 * 3600_000;
const LEASE_MS = 5 * 60_000;

export type CallbackOutcome = 'credited' | 'duplicate' | 'pending' | 'closed' | 'bad_signature' | 'unknown_order' | 'amount_mismatch' | 'app_mismatch' | 'unhandled';

const secs = (d: Date) => Math.floor(d.getTime() / 1000);

export interface WestPayDeps { db: Db; providers: PaymentProvider[]; now: () => Date; log?: Logger }

/** Balances, top-ups and the crediting of callbacks: one path for every provider, idempotent. */
export class WestPayService {
  private readonly db: WestDb;

  constructor(private readonly d: WestPayDeps) {
    this.db = withWestTables(d.db);
  }

  providerNames(): ('sandbox' | 'alipay')[] {
    return this.d.providers.map((p) => p.name);
  }

  provider(name: string): PaymentProvider | undefined {
    return this.d.providers.find((p) => p.name === name);
  }

  async topup(customerId: number, input: WestTopupInput): Promise<WestTopupStarted> {
    const provider = this.provider(input.provider);
    if (!provider) throw new AppError(Code.Invalid, { provider: 'is not available' }, { reason: 'west.provider_unavailable', reasons: { provider: 'west.provider_unavailable' } });
    const now = this.d.now();
    // Ours, unique, and within Alipay's 64 characters: time for sorting by eye, randomness for uniqueness.
    const outTradeNo = `W${now.toISOString().slice(0, 10).replace(/-/g, '')}${randomBytes(9).toString('hex')}`;
    await repo.insertPayment(this.db, { customerId, provider: provider.name, outTradeNo, amountCents: input.amountCents, now, checkAt: new Date(now.getTime() + RECONCILE_AFTER_MS) });
    return { outTradeNo, payUrl: provider.start({ outTradeNo, amountCents: input.amountCents, subject: 'Mailwing top-up / 账户充值', now }).payUrl };
  }

  /**
   * A callback, as the provider sent it. Stored raw with its verification first, then
   * applied. Returns the body to answer with: the provider's ack when the callback was
   * handled (a duplicate included: same answer, nothing changes), its nack when refused.
   */
  async callback(providerName: string, raw: string, params: Record<string, string>): Promise<{ body: string; outcome: CallbackOutcome }> {
    const provider = this.provider(providerName);
    if (!provider) return { body: 'failure', outcome: 'unhandled' };
    const reading = provider.readCallback(params);
    const id = await repo.storeCallback(this.db, { provider: provider.name, raw, verified: reading.verified, outTradeNo: reading.outTradeNo });
    let outcome: CallbackOutcome;
    if (!reading.verified) outcome = 'bad_signature';
    else if (provider.appId !== null && reading.appId !== provider.appId) outcome = 'app_mismatch';
    else if (!reading.outTradeNo) outcome = 'unknown_order';
    else if (reading.state === 'paid') outcome = await this.credit(provider.name, reading.outTradeNo, reading.tradeNo ?? '', reading.amountCents);
    else if (reading.state === 'closed') outcome = await this.close(provider.name, reading.outTradeNo);
    else outcome = 'pending';
    await repo.setOutcome(this.db, id, outcome);
    const refused = outcome === 'bad_signature' || outcome === 'app_mismatch' || outcome === 'unknown_order' || outcome === 'amount_mismatch' || outcome === 'unhandled';
    if (refused) this.d.log?.warn({ provider: provider.name, outTradeNo: reading.outTradeNo, outcome }, 'payment callback refused');
    return { body: refused ? provider.nack : provider.ack, outcome };
  }

  /**
   * Credits a paid payment once. The payment row is locked, so of any number of
   * callbacks (and a reconciliation) arriving together one credits and the rest find
   * it paid; the ledger entry, the balance and the payment's state change in one
   * transaction, and the ledger's unique ref and UNIQUE(provider, trade_no) back it up.
   */
  private async credit(provider: string, outTradeNo: string, tradeNo: string, amountCents: number | null): Promise<CallbackOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const p = await repo.lockPayment(trx, provider, outTradeNo);
      if (!p) return 'unknown_order';
      if (amountCents !== Number(p.amount_cents)) return 'amount_mismatch';
      if (p.status === 'paid') return 'duplicate';
      // A payment we closed for silence can still be paid late: the money arrived, so it counts.
      await repo.markPaid(trx, p.id, tradeNo || `${provider}:${outTradeNo}`, this.d.now());
      await repo.post(trx, { customerId: p.customer_id, amountCents: Number(p.amount_cents), kind: 'topup', ref: `payment:${p.id}` });
      return 'credited';
    });
  }

  private async close(provider: string, outTradeNo: string): Promise<CallbackOutcome> {
    const p = await repo.findPayment(this.db, outTradeNo);
    if (!p || p.provider !== provider) return 'unknown_order';
    await repo.markClosed(this.db, p.id);
    return 'closed';
  }

  /** The sandbox's Pay button: the customer's own pending payment is paid through the callback path. */
  async sandboxPay(customerId: number, outTradeNo: string): Promise<WestPayment> {
    const p = await repo.findPayment(this.db, outTradeNo);
    if (!p || p.customer_id !== customerId || p.provider !== 'sandbox') throw notFound('Payment');
    const params = { out_trade_no: outTradeNo, trade_no: `SBX${p.id}`, amount_cents: String(p.amount_cents) };
    await this.callback('sandbox', JSON.stringify(params), params);
    return toPayment((await repo.findPayment(this.db, outTradeNo))!);
  }

  /**
   * One round of reconciliation: payments pending past RECONCILE_AFTER_MS are asked
   * about. Paid → credited through the same path as a callback; never paid → closed
   * after GIVE_UP_MS; otherwise asked again later. Returns how many were looked at.
   */
  async reconcileDue(now = this.d.now(), limit = 20): Promise<number> {
    const due = await repo.claimDue(this.db, now, LEASE_MS, limit);
    for (const p of due) {
      const provider = this.provider(p.provider);
      try {
        if (!provider) throw new Error(`provider ${p.provider} is not configured`);
        const a = await provider.query(p.out_trade_no, now);
        const id = await repo.storeCallback(this.db, { provider: `${provider.name}:query`, raw: a.raw, verified: a.verified, outTradeNo: p.out_trade_no });
        let outcome: CallbackOutcome = 'pending';
        if (!a.verified) outcome = 'bad_signature';
        else if (a.state === 'paid') outcome = await this.credit(provider.name, p.out_trade_no, a.tradeNo ?? '', a.amountCents);
        else if (a.state === 'closed' || (now.getTime() - new Date(p.created_at).getTime() > GIVE_UP_MS)) {
          await repo.markClosed(this.db, p.id);
          outcome = 'closed';
        }
        await repo.setOutcome(this.db, id, outcome);
        if (outcome === 'pending' || outcome === 'bad_signature') await repo.setCheckAt(this.db, p.id, nextCheck(now, p.checks));
      } catch (err) {
        this.d.log?.warn({ err, outTradeNo: p.out_trade_no }, 'payment reconciliation failed; will retry');
        await repo.setCheckAt(this.db, p.id, nextCheck(now, p.checks));
      }
    }
    return due.length;
  }

  async ledger(customerId: number, page: number, size: number): Promise<{ list: WestLedgerEntry[]; total: number; page: number; size: number }> {
    const { rows, total } = await repo.ledgerPage(this.db, customerId, (page - 1) * size, size);
    return {
      list: rows.map((r) => ({ id: String(r.id), amountCents: Number(r.amount_cents), kind: r.kind, ref: r.ref, balanceAfter: Number(r.balance_after), time: secs(new Date(r.created_at)) })),
      total, page, size,
    };
  }

  async payments(customerId: number, page: number, size: number): Promise<{ list: WestPayment[]; total: number; page: number; size: number }> {
    const { rows, total } = await repo.paymentsPage(this.db, customerId, (page - 1) * size, size);
    return { list: rows.map(toPayment), total, page, size };
  }

  /** The proof that every balance is the sum of its ledger: the customers where it is not (none). */
  checkBalances() {
    return repo.balanceMismatches(this.db);
  }
}

function nextCheck(now: Date, checks: number): Date {
  return new Date(now.getTime() + Math.min(RECONCILE_AFTER_MS * 2 ** Math.max(0, checks - 1), RECHECK_MAX_MS));
}

function toPayment(r: { id: number; provider: string; out_trade_no: string; amount_cents: number; status: 'pending' | 'paid' | 'closed'; created_at: Date }): WestPayment {
  return { id: String(r.id), provider: r.provider, outTradeNo: r.out_trade_no, amountCents: Number(r.amount_cents), status: r.status, time: secs(new Date(r.created_at)) };
}
