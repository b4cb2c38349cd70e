import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withLifeTables } from './tables.js';

const life = (db: Db) => withLifeTables(db);
const DAY_MS = 86_400_000;

/**
 * Plans the reminders due by `now` for sold, active companies. Only the nearest threshold is
 * sent: a company bought 5 days before its expiry gets the 7-day mail, not the 30-day one too,
 * and a 30-day mail not yet sent when the 7-day one falls due is skipped.
 */
export async function plan(db: Db, now: Date, days: readonly number[]): Promise<void> {
  const max = Math.max(...days);
  const rows = await db.selectFrom('companies').select(['id', 'expires_at'])
    .where('customer_id', 'is not', null).where('status', '=', 'active')
    .where('expires_at', '>', now).where('expires_at', '<=', new Date(now.getTime() + max * DAY_MS)).execute();
  for (const c of rows) {
    const expires = c.expires_at!;
    const due = days.filter((d) => expires.getTime() - d * DAY_MS <= now.getTime());
    if (due.length === 0) continue;
    const nearest = Math.min(...due);
    await life(db).insertInto('company_notices')
      .values(due.map((d) => ({ company_id: c.id, expires_at: expires, days_before: d, state: d === nearest ? 'pending' as const : 'skipped' as const })))
      .onConflict((oc) => oc.columns(['company_id', 'expires_at', 'days_before']).doNothing()).execute();
    await life(db).updateTable('company_notices').set({ state: 'skipped' })
      .where('company_id', '=', c.id).where('expires_at', '=', expires).where('days_before', '>', nearest).where('state', '=', 'pending').execute();
  }
}

export interface ClaimedNotice { company_id: number; expires_at: Date; days_before: number; customer_id: number | null; name: string }

/** Pending reminders whose company still has that expiry, each leased to this node. */
export async function claim(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedNotice[]> {
  // A renewal moved the expiry: the old reminders are moot.
  await sql`UPDATE company_notices n SET state = 'skipped' FROM companies c
    WHERE n.state = 'pending' AND c.id = n.company_id AND (c.expires_at IS DISTINCT FROM n.expires_at OR c.status <> 'active')`.execute(db);
  const r = await sql<ClaimedNotice>`
    UPDATE company_notices n SET lease_until = ${leaseUntil}, attempts = n.attempts + 1
    FROM companies c
    WHERE (n.company_id, n.expires_at, n.days_before) IN (
      SELECT company_id, expires_at, days_before FROM company_notices
      WHERE state = 'pending' AND (lease_until IS NULL OR lease_until < ${now}) LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      AND c.id = n.company_id
    RETURNING n.company_id, n.expires_at, n.days_before, c.customer_id, c.name`.execute(db);
  return r.rows.map((n) => ({ ...n, company_id: Number(n.company_id), customer_id: n.customer_id === null ? null : Number(n.customer_id), expires_at: new Date(n.expires_at) }));
}

export async function markSent(db: Db, n: { company_id: number; expires_at: Date; days_before: number }, now: Date): Promise<void> {
  await life(db).updateTable('company_notices').set({ state: 'sent', sent_at: now, lease_until: null })
    .where('company_id', '=', n.company_id).where('expires_at', '=', n.expires_at).where('days_before', '=', n.days_before).execute();
}

export async function noticesOf(db: Db, companyId: number) {
  return life(db).selectFrom('company_notices').select(['expires_at', 'days_before', 'state', 'sent_at']).where('company_id', '=', companyId)
    .orderBy('expires_at').orderBy('days_before', 'desc').execute();
}
