import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withConsoleTables } from '../domain-check/tables.js';

const t = (db: Db) => withConsoleTables(db);

export async function template(db: Db, companyId: number) {
  return t(db).selectFrom('welcome_templates').select(['enabled', 'subject', 'body']).where('company_id', '=', companyId).executeTakeFirst();
}

export async function saveTemplate(db: Db, companyId: number, v: { enabled: boolean; subject: string; body: string; now: Date }) {
  await t(db).insertInto('welcome_templates').values({ company_id: companyId, enabled: v.enabled, subject: v.subject, body: v.body, updated_at: v.now })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ enabled: v.enabled, subject: v.subject, body: v.body, updated_at: v.now })).execute();
}

export async function enqueue(db: Db, userId: number): Promise<void> {
  await t(db).insertInto('welcome_mails').values({ user_id: userId }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
}

export interface WelcomeJob { user_id: number; email: string; name: string; company_id: number; company: string; domain: string }

export async function claimPending(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<WelcomeJob[]> {
  const r = await sql<WelcomeJob>`
    UPDATE welcome_mails w SET lease_until = ${leaseUntil}, attempts = w.attempts + 1
    FROM users u, companies c, domains d
    WHERE w.user_id IN (SELECT user_id FROM welcome_mails WHERE state = 'pending' AND (lease_until IS NULL OR lease_until < ${now})
                        ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      AND u.id = w.user_id AND c.id = u.company_id AND d.id = u.domain_id
    RETURNING w.user_id, u.email, u.name, u.company_id, c.name AS company, d.name AS domain`.execute(db);
  return r.rows.map((j) => ({ ...j, user_id: Number(j.user_id), company_id: Number(j.company_id) }));
}

export async function finish(db: Db, userId: number, state: 'sent' | 'skipped', now: Date): Promise<void> {
  await t(db).updateTable('welcome_mails').set({ state, sent_at: now, lease_until: null }).where('user_id', '=', userId).execute();
}

export async function userOfCompany(db: Db, companyId: number, userId: number) {
  return db.selectFrom('users as u').innerJoin('companies as c', 'c.id', 'u.company_id').innerJoin('domains as d', 'd.id', 'u.domain_id')
    .select(['u.id as user_id', 'u.email', 'u.name', 'u.company_id', 'c.name as company', 'd.name as domain'])
    .where('u.company_id', '=', companyId).where('u.id', '=', userId).executeTakeFirst();
}
