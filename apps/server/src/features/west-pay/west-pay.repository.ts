import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { WestDb, WestTables } from '../west-account/tables.js';

// The only SQL of the storefront's money: ledger, top-up payments and their callbacks.

type Trx = Transaction<Database & WestTables>;
export type LedgerKind = WestTables['west_ledger']['kind'];

/**
 * Adds one ledger entry and moves the cached balance with it, in the caller's
 * transaction, the customer row locked. `ref` is unique: an entry for the same
 * thing twice is refused by the database. Returns the balance after, or null when
 * a debit would take the balance below zero.
 */
export async function post(trx: Trx, v: { customerId: number; amountCents: number; kind: LedgerKind; ref: string }): Promise<number | null> {
  const c = await trx.selectFrom('customers').select('balance_cents').where('id', '=', v.customerId).forUpdate().executeTakeFirstOrThrow();
  const after = Number(c.balance_cents) + v.amountCents;
  if (after < 0) return null;
  await trx.insertInto('west_ledger').values({ customer_id: v.customerId, amount_cents: v.amountCents, kind: v.kind, ref: v.ref, balance_after: after }).execute();
  await trx.updateTable('customers').set({ balance_cents: after }).where('id', '=', v.customerId).execute();
  return after;
}

export async function ledgerPage(db: WestDb, customerId: number, offset: number, limit: number) {
  const rows = await db.selectFrom('west_ledger').selectAll().where('customer_id', '=', customerId).orderBy('id', 'desc').offset(offset).limit(limit).execute();
  const { n } = await db.selectFrom('west_ledger').select(sql<number>`count(*)::int`.as('n')).where('customer_id', '=', customerId).executeTakeFirstOrThrow();
  return { rows, total: n };
}

/** Customers whose cached balance is not the sum of their ledger (should be none). */
export async function balanceMismatches(db: WestDb) {
  const r = await sql<{ id: number; balance: number; sum: number }>`
    SELECT c.id, c.balance_cents AS balance, coalesce(sum(l.amount_cents), 0)::bigint AS sum
    FROM customers c LEFT JOIN west_ledger l ON l.customer_id = c.id
    GROUP BY c.id HAVING c.balance_cents <> coalesce(sum(l.amount_cents), 0)`.execute(db);
  return r.rows.map((x) => ({ customerId: Number(x.id), balanceCents: Number(x.balance), ledgerCents: Number(x.sum) }));
}

// ---- payments ----

export async function insertPayment(db: WestDb, v: { customerId: number; provider: string; outTradeNo: string; amountCents: number; now: Date; checkAt: Date }) {
  return db.insertInto('west_payments').values({
    customer_id: v.customerId, provider: v.provider, out_trade_no: v.outTradeNo, amount_cents: v.amountCents, created_at: v.now, check_at: v.checkAt,
  }).returning('id').executeTakeFirstOrThrow();
}

export async function findPayment(db: WestDb, outTradeNo: string) {
  return db.selectFrom('west_payments').selectAll().where('out_trade_no', '=', outTradeNo).executeTakeFirst();
}

export async function lockPayment(trx: Trx, provider: string, outTradeNo: string) {
  return trx.selectFrom('west_payments').selectAll().where('provider', '=', provider).where('out_trade_no', '=', outTradeNo).forUpdate().executeTakeFirst();
}

export async function markPaid(trx: Trx, id: number, tradeNo: string, now: Date) {
  await trx.updateTable('west_payments').set({ status: 'paid', trade_no: tradeNo, paid_at: now }).where('id', '=', id).execute();
}

export async function markClosed(db: WestDb | Trx, id: number) {
  await db.updateTable('west_payments').set({ status: 'closed' }).where('id', '=', id).where('status', '=', 'pending').execute();
}

export async function paymentsPage(db: WestDb, customerId: number, offset: number, limit: number) {
  const rows = await db.selectFrom('west_payments').selectAll().where('customer_id', '=', customerId).orderBy('id', 'desc').offset(offset).limit(limit).execute();
  const { n } = await db.selectFrom('west_payments').select(sql<number>`count(*)::int`.as('n')).where('customer_id', '=', customerId).executeTakeFirstOrThrow();
  return { rows, total: n };
}

/**
 * Claims pending payments due for a check: their check_at moves one lease ahead in the
 * same statement (FOR UPDATE SKIP LOCKED), so two nodes never ask about one payment at
 * once, and a node that dies mid-check lets it come back after the lease.
 */
export async function claimDue(db: WestDb, now: Date, leaseMs: number, limit: number) {
  const r = await sql<{ id: number; provider: string; out_trade_no: string; amount_cents: number; customer_id: number; created_at: Date; checks: number }>`
    UPDATE west_payments p SET check_at = ${new Date(now.getTime() + leaseMs)}, checks = p.checks + 1
    FROM (SELECT id FROM west_payments WHERE status = 'pending' AND check_at <= ${now} ORDER BY check_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED) c
    WHERE p.id = c.id
    RETURNING p.id, p.provider, p.out_trade_no, p.amount_cents, p.customer_id, p.created_at, p.checks`.execute(db);
  return r.rows.map((x) => ({ ...x, id: Number(x.id), amount_cents: Number(x.amount_cents), customer_id: Number(x.customer_id) }));
}

export async function setCheckAt(db: WestDb, id: number, at: Date) {
  await db.updateTable('west_payments').set({ check_at: at }).where('id', '=', id).where('status', '=', 'pending').execute();
}

// ---- callbacks ----

export async function storeCallback(db: WestDb, v: { provider: string; raw: string; verified: boolean; outTradeNo: string | null }): Promise<number> {
  const r = await db.insertInto('west_payment_callbacks').values({ provider: v.provider, raw: v.raw, verified: v.verified, out_trade_no: v.outTradeNo, outcome: 'received' })
    .returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function setOutcome(db: WestDb, id: number, outcome: string) {
  await db.updateTable('west_payment_callbacks').set({ outcome }).where('id', '=', id).execute();
}
