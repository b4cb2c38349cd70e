import { Code, type WestAddSeatsInput, type WestBuyInput, type WestBuyQuoteInput, type WestCompany, type WestOrder, type WestPlan, type WestQuote, type WestRenewInput } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { hashPassword } from '../account/password.js';
import { extendCompany, proRataCents } from '../company-life/expiry.service.js';
import { enqueueProvision, provisionStatus } from '../company-life/provision.service.js';
import { withWestTables, type WestDb, type WestTables } from '../west-account/tables.js';
import * as pay from '../west-pay/west-pay.repository.js';
import * as repo from './west-shop.repository.js';

// Buying, renewing and adding seats, paid from the balance. The price is computed here,
// shown to the customer (quote), checked again at purchase against what they saw, and
// snapshotted on the order. The debit, the order and the provisioning job (or the
// extension) are one transaction: either all happen or none. Inside it every query goes
// through the transaction: on PGlite (one connection) a query on the pool would wait for it.

const secs = (d: Date) => Math.floor(d.getTime() / 1000);
const balanceLow = () => new AppError(Code.Forbidden, 'The balance is too low. Please top up first.', { reason: 'west.balance_low' });
const priceChanged = (cents: number) => new AppError(Code.Invalid, { priceCents: `the price is now ${cents}` }, { reason: 'west.price_changed', reasons: { priceCents: 'west.price_changed' }, priceCents: cents });

function addYears(d: Date, years: number): Date {
  const r = new Date(d.getTime());
  r.setUTCFullYear(r.getUTCFullYear() + years);
  return r;
}

export interface WestShopDeps { db: Db; now: () => Date; onProvisionQueued?: () => void }

type OwnCompany = NonNullable<Awaited<ReturnType<typeof repo.lockOwnCompany>>>;
type Plan = NonNullable<Awaited<ReturnType<typeof repo.planByCode>>>;

export class WestShopService {
  private readonly db: WestDb;

  constructor(private readonly d: WestShopDeps) {
    this.db = withWestTables(d.db);
  }

  async plans(): Promise<WestPlan[]> {
    return (await repo.activePlans(this.db)).map((p) => ({
      id: String(p.id), code: p.code, nameZh: p.name_zh, nameEn: p.name_en, seatYearCents: Number(p.seat_year_cents), minSeats: p.min_seats, maxSeats: p.max_seats, quotaMb: p.quota_mb,
    }));
  }

  async quote(input: WestBuyQuoteInput): Promise<WestQuote> {
    const plan = await repo.planById(this.db, Number(input.planId));
    if (!plan) throw notFound('Plan');
    if (input.seats < plan.min_seats || input.seats > plan.max_seats) throw invalid('seats', `must be ${plan.min_seats} to ${plan.max_seats}`, 'west.seats_out_of_range');
    const seatYear = Number(plan.seat_year_cents);
    return { priceCents: seatYear * input.seats * input.years, seatYearCents: seatYear, seats: input.seats, years: input.years };
  }

  async buy(customerId: number, input: WestBuyInput): Promise<WestOrder> {
    const q = await this.quote(input);
    if (q.priceCents !== input.priceCents) throw priceChanged(q.priceCents);
    const plan = (await repo.planById(this.db, Number(input.planId)))!;
    const passwordHash = await hashPassword(input.adminPassword);
    const now = this.d.now();
    const orderId = await this.d.db.transaction().execute(async (base) => {
      const trx = base.withTables<WestTables>();
      const id = await repo.insertOrder(trx, {
        customerId, kind: 'buy', planId: plan.id, companyId: null, domain: input.domain, seats: q.seats, years: q.years, seatYearCents: q.seatYearCents,
        priceCents: q.priceCents, adminEmail: `${input.adminUser}@${input.domain}`, adminPasswordHash: passwordHash,
      });
      if (q.priceCents > 0 && await pay.post(trx, { customerId, amountCents: -q.priceCents, kind: 'purchase', ref: `order:${id}` }) === null) throw balanceLow();
      await enqueueProvision(base, {
        orderId: id, customerId, companyName: input.companyName, domain: input.domain, plan: plan.code, seats: q.seats,
        expiresAt: addYears(now, q.years), adminLocalPart: input.adminUser, adminPasswordHash: passwordHash,
      }, now);
      return id;
    });
    this.d.onProvisionQueued?.();
    return this.order(customerId, orderId);
  }

  /** Renews from the later of now and the expiry (company-life's extendCompany), at the plan's price for the company's seats. */
  renew(customerId: number, input: WestRenewInput): Promise<WestOrder> {
    return this.changeCompany(customerId, input, 'renew', (c, plan) => Number(plan.seat_year_cents) * c.seats * input.years,
      (c) => ({ seats: c.seats, years: input.years }), { years: input.years });
  }

  /** More seats until the current expiry, priced pro rata for the time left. */
  addSeats(customerId: number, input: WestAddSeatsInput): Promise<WestOrder> {
    return this.changeCompany(customerId, input, 'seats', (c, plan, now) => {
      if (!c.expires_at) throw invalid('companyId', 'this company has no term to add seats to', 'west.no_term');
      return proRataCents(Number(plan.seat_year_cents), input.seats, c.expires_at, now);
    }, () => ({ seats: input.seats, years: 0 }), { addSeats: input.seats });
  }

  /**
   * One paid change to a company the customer owns (renew, seats): the company row locked,
   * the price checked against what the customer saw, the order and its debit, and the change
   * itself, in one transaction.
   */
  private async changeCompany(
    customerId: number, input: { companyId: string | number; priceCents: number }, kind: 'renew' | 'seats',
    priceOf: (c: OwnCompany, plan: Plan, now: Date) => number,
    orderSize: (c: OwnCompany) => { seats: number; years: number },
    change: { years?: number; addSeats?: number },
  ): Promise<WestOrder> {
    const now = this.d.now();
    const orderId = await this.d.db.transaction().execute(async (base) => {
      const trx = base.withTables<WestTables>();
      const c = await repo.lockOwnCompany(trx, customerId, Number(input.companyId));
      if (!c) throw notFound('Company');
      const plan = await repo.planByCode(trx, c.plan);
      if (!plan) throw notFound('Plan');
      const price = priceOf(c, plan, now);
      if (price !== input.priceCents) throw priceChanged(price);
      const domain = await repo.domainOf(trx, c.id);
      const id = await repo.insertOrder(trx, { customerId, kind, planId: plan.id, companyId: c.id, domain, ...orderSize(c), seatYearCents: Number(plan.seat_year_cents), priceCents: price });
      if (price > 0 && await pay.post(trx, { customerId, amountCents: -price, kind, ref: `order:${id}` }) === null) throw balanceLow();
      await extendCompany(base, c.id, { ...change, customerId }, now);
      return id;
    });
    return this.order(customerId, orderId);
  }

  /** The pro-rata price of seats for a company now: what the client shows before addSeats. */
  async seatsQuote(customerId: number, companyId: number, seats: number): Promise<WestQuote> {
    const c = (await repo.companiesOf(this.db, customerId)).find((x) => x.id === companyId);
    const plan = c ? await repo.planByCode(this.db, c.plan) : undefined;
    if (!c || !plan || !c.expires_at) throw notFound('Company');
    return { priceCents: proRataCents(Number(plan.seat_year_cents), seats, c.expires_at, this.d.now()), seatYearCents: Number(plan.seat_year_cents), seats, years: 0 };
  }

  async orders(customerId: number, page: number, size: number): Promise<{ list: WestOrder[]; total: number; page: number; size: number }> {
    const { rows, total } = await repo.ordersPage(this.db, customerId, (page - 1) * size, size);
    return { list: await Promise.all(rows.map((r) => this.toOrder(r))), total, page, size };
  }

  private async order(customerId: number, id: number): Promise<WestOrder> {
    const r = await repo.orderOf(this.db, customerId, id);
    return this.toOrder(r);
  }

  private async toOrder(r: { id: number; kind: 'buy' | 'renew' | 'seats'; plan_id: number; company_id: number | null; domain: string; seats: number; years: number; price_cents: number; created_at: Date }): Promise<WestOrder> {
    const st = r.kind === 'buy' ? await provisionStatus(this.d.db, r.id) : null;
    const companyId = r.company_id ?? st?.companyId ?? null;
    return {
      id: String(r.id), kind: r.kind, planId: String(r.plan_id), companyId: companyId === null ? null : String(companyId), domain: r.domain, seats: r.seats,
      years: r.years, priceCents: Number(r.price_cents), time: secs(new Date(r.created_at)),
      provision: r.kind === 'buy' ? (st?.state ?? 'pending') : 'done', provisionError: st?.state === 'failed' ? st.lastError : '',
    };
  }

  async companies(customerId: number): Promise<WestCompany[]> {
    return (await repo.companiesOf(this.db, customerId)).map((c) => ({
      id: String(c.id), name: c.name, domain: c.domain ?? '', plan: c.plan, seats: c.seats, usedSeats: Number(c.used ?? 0),
      expiresAt: c.expires_at ? secs(new Date(c.expires_at)) : null, status: c.status,
    }));
  }
}
