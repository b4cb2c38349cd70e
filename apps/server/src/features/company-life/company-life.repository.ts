import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

// Company rows as the lifecycle sees them: terms (plan, seats, expiry), status, and who owns them.

export type CompanyStatus = 'active' | 'readonly' | 'suspended';

export async function setTerms(db: Db, companyId: number, v: { plan: string; seats: number; expiresAt: Date }): Promise<void> {
  await db.updateTable('companies').set({ plan: v.plan, seats: v.seats, expires_at: v.expiresAt, status: 'active' }).where('id', '=', companyId).execute();
}

export async function lockCompany(db: Db, companyId: number) {
  return db.selectFrom('companies').select(['id', 'customer_id', 'name', 'plan', 'seats', 'expires_at', 'status']).where('id', '=', companyId).forUpdate().executeTakeFirst();
}

export async function updateCompany(db: Db, companyId: number, v: { seats?: number; expiresAt?: Date; status?: CompanyStatus }): Promise<void> {
  await db.updateTable('companies').set({
    ...(v.seats !== undefined ? { seats: v.seats } : {}), ...(v.expiresAt ? { expires_at: v.expiresAt } : {}), ...(v.status ? { status: v.status } : {}),
  }).where('id', '=', companyId).execute();
}

/** Moves sold companies past their expiry to read-only, and past the grace to suspended. Returns how many changed. */
export async function applyExpiry(db: Db, now: Date, graceMs: number): Promise<number> {
  const suspendBefore = new Date(now.getTime() - graceMs);
  const s = await db.updateTable('companies').set({ status: 'suspended' })
    .where('customer_id', 'is not', null).where('expires_at', '<=', suspendBefore).where('status', '<>', 'suspended').executeTakeFirst();
  const r = await db.updateTable('companies').set({ status: 'readonly' })
    .where('customer_id', 'is not', null).where('expires_at', '<=', now).where('expires_at', '>', suspendBefore).where('status', '=', 'active').executeTakeFirst();
  return Number(s.numUpdatedRows) + Number(r.numUpdatedRows);
}

export async function statusOfCompany(db: Db, companyId: number): Promise<CompanyStatus> {
  const row = await db.selectFrom('companies').select('status').where('id', '=', companyId).executeTakeFirst();
  return (row?.status ?? 'active') as CompanyStatus;
}

/** The status of the company that hosts a domain, for the SMTP RCPT check; null when the domain is not hosted. */
export async function statusOfDomain(db: Db, domain: string): Promise<CompanyStatus | null> {
  const row = await db.selectFrom('domains').innerJoin('companies', 'companies.id', 'domains.company_id').select('companies.status')
    .where('domains.name', '=', domain.toLowerCase()).executeTakeFirst();
  return row ? (row.status as CompanyStatus) : null;
}

export async function customerEmail(db: Db, customerId: number): Promise<string | null> {
  const row = await db.selectFrom('customers').select('email').where('id', '=', customerId).executeTakeFirst();
  return row?.email ?? null;
}

export async function customerBalance(db: Db, customerId: number): Promise<number | null> {
  const row = await db.selectFrom('customers').select('balance_cents').where('id', '=', customerId).executeTakeFirst();
  return row ? Number(row.balance_cents) : null;
}

export async function companiesOfCustomer(db: Db, customerId: number) {
  return db.selectFrom('companies').select(['id', 'name', 'plan', 'seats', 'expires_at', 'status', 'created_at'])
    .where('customer_id', '=', customerId).orderBy('id').execute();
}

/** A sold company with its first domain, seats used (active mailboxes) and its administrators' addresses. */
export async function companyOverview(db: Db, customerId: number, companyId: number) {
  const c = await db.selectFrom('companies').select(['id', 'name', 'plan', 'seats', 'expires_at', 'status', 'created_at'])
    .where('id', '=', companyId).where('customer_id', '=', customerId).executeTakeFirst();
  if (!c) return undefined;
  const used = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow();
  const domains = await db.selectFrom('domains').select(['name']).where('company_id', '=', companyId).orderBy('id').execute();
  return { ...c, seatsUsed: Number(used.n), domains: domains.map((d) => d.name) };
}

export async function adminAddresses(db: Db, companyId: number): Promise<string[]> {
  const rows = await db.selectFrom('users').select('email').where('company_id', '=', companyId).where('role', '=', 'admin').where('status', '=', 'active').orderBy('id').execute();
  return rows.map((r) => r.email);
}

export async function firstDomain(db: Db, companyId: number): Promise<string | null> {
  const row = await db.selectFrom('domains').select('name').where('company_id', '=', companyId).orderBy('id').executeTakeFirst();
  return row?.name ?? null;
}

export async function countCompanies(db: Db, customerId: number): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM companies WHERE customer_id = ${customerId}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
