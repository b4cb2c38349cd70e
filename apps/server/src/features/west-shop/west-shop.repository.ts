import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { WestDb, WestTables } from '../west-account/tables.js';

// The only SQL of plans, orders and the companies a customer owns.

type Trx = Transaction<Database & WestTables>;

export async function activePlans(db: WestDb) {
  return db.selectFrom('west_plans').selectAll().where('active', '=', true).orderBy('seat_year_cents').orderBy('id').execute();
}

export async function planById(db: WestDb | Trx, id: number) {
  return db.selectFrom('west_plans').selectAll().where('id', '=', id).where('active', '=', true).executeTakeFirst();
}

export async function planByCode(db: WestDb | Trx, code: string) {
  return db.selectFrom('west_plans').selectAll().where('code', '=', code).executeTakeFirst();
}

export async function insertPlan(db: WestDb, v: { code: string; nameZh: string; nameEn: string; seatYearCents: number; quotaMb?: number }) {
  await db.insertInto('west_plans').values({ code: v.code, name_zh: v.nameZh, name_en: v.nameEn, seat_year_cents: v.seatYearCents, quota_mb: v.quotaMb ?? 5120 })
    .onConflict((oc) => oc.column('code').doNothing()).execute();
}

export async function insertOrder(trx: Trx, v: {
  customerId: number; kind: 'buy' | 'renew' | 'seats'; planId: number; companyId: number | null; domain: string; seats: number; years: number;
  seatYearCents: number; priceCents: number; adminEmail?: string; adminPasswordHash?: string | null;
}): Promise<number> {
  const r = await trx.insertInto('west_orders').values({
    customer_id: v.customerId, kind: v.kind, plan_id: v.planId, company_id: v.companyId, domain: v.domain, seats: v.seats, years: v.years,
    seat_year_cents: v.seatYearCents, price_cents: v.priceCents, admin_email: v.adminEmail ?? '', admin_password_hash: v.adminPasswordHash ?? null,
  }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function ordersPage(db: WestDb, customerId: number, offset: number, limit: number) {
  const rows = await db.selectFrom('west_orders').selectAll().where('customer_id', '=', customerId).orderBy('id', 'desc').offset(offset).limit(limit).execute();
  const { n } = await db.selectFrom('west_orders').select(sql<number>`count(*)::int`.as('n')).where('customer_id', '=', customerId).executeTakeFirstOrThrow();
  return { rows, total: n };
}

/** A company of this customer, locked for the caller's transaction; undefined when missing or another's. */
export async function lockOwnCompany(trx: Trx, customerId: number, companyId: number) {
  return trx.selectFrom('companies').select(['id', 'plan', 'seats', 'expires_at', 'status']).where('id', '=', companyId).where('customer_id', '=', customerId)
    .forUpdate().executeTakeFirst();
}

export async function companiesOf(db: WestDb, customerId: number) {
  return db.selectFrom('companies').where('companies.customer_id', '=', customerId)
    .select((eb) => [
      'companies.id', 'companies.name', 'companies.plan', 'companies.seats', 'companies.expires_at', 'companies.status',
      eb.selectFrom('domains').select('domains.name').whereRef('domains.company_id', '=', 'companies.id').orderBy('domains.id').limit(1).as('domain'),
      eb.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).whereRef('users.company_id', '=', 'companies.id').as('used'),
    ])
    .orderBy('companies.id').execute();
}
