import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withConsoleTables } from './tables.js';

const t = (db: Db) => withConsoleTables(db);

export interface CheckRow {
  id: number; company_id: number; name: string; domain_id: number | null; verify_token: string; verified_at: Date | null;
  result: unknown; checked_at: Date | null; check_ms: number | null; next_at: Date | null; recheck_until: Date | null;
  dkim_next_selector: string | null; dkim_next_private_key: string | null; dkim_next_public_key: string | null;
  /** The hosted domain's current key; null while the domain is pending. */
  dkim_selector: string | null; dkim_public_key: string | null;
}

const rows = (db: Db) => t(db).selectFrom('domain_checks as c').leftJoin('domains as d', 'd.id', 'c.domain_id')
  .select(['c.id', 'c.company_id', 'c.name', 'c.domain_id', 'c.verify_token', 'c.verified_at', 'c.result', 'c.checked_at', 'c.check_ms', 'c.next_at',
    'c.recheck_until', 'c.dkim_next_selector', 'c.dkim_next_private_key', 'c.dkim_next_public_key', 'd.dkim_selector', 'd.dkim_public_key']);

/** Domains hosted before the console (company creation) get their check row, counted as verified: the operator added them. */
export async function ensureRows(db: Db, companyId: number): Promise<void> {
  await sql`
    INSERT INTO domain_checks (company_id, name, domain_id, verify_token, verified_at)
    SELECT d.company_id, d.name, d.id, replace(gen_random_uuid()::text, '-', ''), d.created_at FROM domains d
    WHERE d.company_id = ${companyId} AND NOT EXISTS (SELECT 1 FROM domain_checks c WHERE c.domain_id = d.id)
    ON CONFLICT (company_id, name) DO UPDATE SET domain_id = EXCLUDED.domain_id, verified_at = coalesce(domain_checks.verified_at, EXCLUDED.verified_at)`.execute(db);
}

export async function listRows(db: Db, companyId: number): Promise<CheckRow[]> {
  return (await rows(db).where('c.company_id', '=', companyId).orderBy('c.name').execute()) as CheckRow[];
}

export async function findRow(db: Db, companyId: number, name: string): Promise<CheckRow | undefined> {
  return (await rows(db).where('c.company_id', '=', companyId).where('c.name', '=', name).executeTakeFirst()) as CheckRow | undefined;
}

export async function byId(db: Db, id: number): Promise<CheckRow | undefined> {
  return (await rows(db).where('c.id', '=', id).executeTakeFirst()) as CheckRow | undefined;
}

export async function insertPending(db: Db, v: { companyId: number; name: string; token: string; selector: string; privateKey: string; publicKey: string; now: Date; until: Date }) {
  await t(db).insertInto('domain_checks').values({
    company_id: v.companyId, name: v.name, verify_token: v.token, dkim_next_selector: v.selector, dkim_next_private_key: v.privateKey,
    dkim_next_public_key: v.publicKey, next_at: v.now, recheck_until: v.until, created_at: v.now,
  }).execute();
}

export async function setNextKey(db: Db, id: number, key: { selector: string; privateKey: string; publicKey: string }) {
  await t(db).updateTable('domain_checks').set({ dkim_next_selector: key.selector, dkim_next_private_key: key.privateKey, dkim_next_public_key: key.publicKey }).where('id', '=', id).execute();
}

/** A change: checked every 10 minutes from now until `until`. */
export async function scheduleRechecks(db: Db, id: number, now: Date, until: Date) {
  await t(db).updateTable('domain_checks').set({ next_at: now, recheck_until: until }).where('id', '=', id).execute();
}

/** Due checks, each leased so another node leaves it alone; a node that dies lets the lease run out. */
export async function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<number[]> {
  const r = await sql<{ id: number }>`
    UPDATE domain_checks SET lease_until = ${leaseUntil}
    WHERE id IN (SELECT id FROM domain_checks WHERE next_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now})
                 ORDER BY next_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id`.execute(db);
  return r.rows.map((x) => Number(x.id));
}

export async function saveResult(db: Db, id: number, v: { result: unknown; checkedAt: Date; ms: number; nextAt: Date | null; verified: boolean }) {
  await t(db).updateTable('domain_checks').set((eb) => ({
    result: JSON.stringify(v.result), checked_at: v.checkedAt, check_ms: v.ms, next_at: v.nextAt, lease_until: null,
    verified_at: v.verified ? eb.fn.coalesce('verified_at', eb.val(v.checkedAt)) : eb.ref('verified_at'),
  })).where('id', '=', id).execute();
}

export async function hostedElsewhere(db: Db, name: string): Promise<boolean> {
  return !!(await db.selectFrom('domains').select('id').where('name', '=', name).executeTakeFirst());
}

/** The pending domain becomes hosted, with the key it was given when added. */
export async function hostPending(db: Db, row: CheckRow): Promise<void> {
  const d = await db.insertInto('domains').values({
    company_id: row.company_id, name: row.name, dkim_selector: row.dkim_next_selector!, dkim_private_key: row.dkim_next_private_key!, dkim_public_key: row.dkim_next_public_key!,
  }).returning('id').executeTakeFirstOrThrow();
  await t(db).updateTable('domain_checks').set({ domain_id: d.id, dkim_next_selector: null, dkim_next_private_key: null, dkim_next_public_key: null })
    .where('id', '=', row.id).execute();
}

/** The rotated key's record is published: it signs from now on; the old selector is remembered so the admin can remove its record. */
export async function promoteNextKey(db: Db, row: CheckRow): Promise<void> {
  await db.updateTable('domains').set({ dkim_selector: row.dkim_next_selector!, dkim_private_key: row.dkim_next_private_key!, dkim_public_key: row.dkim_next_public_key! })
    .where('id', '=', row.domain_id!).execute();
  await t(db).updateTable('domain_checks').set({ dkim_previous_selector: row.dkim_selector, dkim_next_selector: null, dkim_next_private_key: null, dkim_next_public_key: null })
    .where('id', '=', row.id).execute();
}

export async function deletePending(db: Db, companyId: number, name: string): Promise<boolean> {
  const r = await t(db).deleteFrom('domain_checks').where('company_id', '=', companyId).where('name', '=', name).where('domain_id', 'is', null).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
