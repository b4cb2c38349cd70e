import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withPeopleTables } from '../people/tables.js';

export interface ClaimedNotice { id: number; user_id: number; level: number; email: string; name: string; company_id: number; quota_bytes: number; used: number }

/**
 * Warnings queued by migration 018's users trigger, each leased to this node until
 * `leaseUntil` (FOR UPDATE SKIP LOCKED); a node that dies leaves its lease to expire.
 */
export async function claimNotices(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedNotice[]> {
  const r = await sql<ClaimedNotice>`
    UPDATE quota_notices n SET claimed_until = ${leaseUntil} FROM users u
    WHERE n.id IN (SELECT id FROM quota_notices WHERE sent_at IS NULL AND (claimed_until IS NULL OR claimed_until < ${now})
      ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED) AND u.id = n.user_id
    RETURNING n.id, n.user_id, n.level, u.email, u.name, u.company_id, u.quota_bytes, (u.used_bytes + u.disk_bytes) AS used`.execute(db);
  return r.rows.map((n) => ({ ...n, id: Number(n.id), user_id: Number(n.user_id), company_id: Number(n.company_id), quota_bytes: Number(n.quota_bytes), used: Number(n.used) }));
}

export async function markSent(db: Db, id: number, now: Date): Promise<void> {
  await withPeopleTables(db).updateTable('quota_notices').set({ sent_at: now }).where('id', '=', id).execute();
}

/** Admins who manage the user: company-wide ones and those whose department subtree holds the user. */
export async function adminsOf(db: Db, userId: number): Promise<string[]> {
  const r = await sql<{ email: string }>`
    WITH RECURSIVE up(id, parent_id) AS (
      SELECT d.id, d.parent_id FROM departments d JOIN users u ON u.department_id = d.id WHERE u.id = ${userId}
      UNION SELECT d.id, d.parent_id FROM departments d JOIN up ON d.id = up.parent_id)
    SELECT a.email FROM users a JOIN users u ON u.id = ${userId} AND a.company_id = u.company_id
    LEFT JOIN departments ad ON ad.id = a.department_id
    WHERE a.role = 'admin' AND a.status = 'active' AND a.id <> u.id
      AND (a.department_id IS NULL OR ad.parent_id IS NULL OR a.department_id IN (SELECT id FROM up)
        OR EXISTS (SELECT 1 FROM admin_scopes s WHERE s.user_id = a.id AND s.department_id IN (SELECT id FROM up)))
    ORDER BY a.email`.execute(db);
  return r.rows.map((x) => x.email);
}
