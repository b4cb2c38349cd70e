import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withPeopleTables } from './tables.js';

// The only SQL of people, departments and admin scopes. Every query names the company.

const PERSON_COLS = ['id', 'email', 'name', 'job_title', 'phone', 'role', 'status', 'department_id', 'quota_bytes', 'used_bytes', 'disk_bytes', 'quota_level'] as const;
export type PersonRow = { id: number; email: string; name: string; job_title: string; phone: string; role: 'user' | 'admin'; status: 'active' | 'disabled'; department_id: number | null; quota_bytes: number; used_bytes: number; disk_bytes: number; quota_level: number };

export async function company(db: Db, companyId: number) {
  return withPeopleTables(db).selectFrom('companies').select(['id', 'is_demo', 'quota_bytes']).where('id', '=', companyId).executeTakeFirstOrThrow();
}

/** Departments an admin is limited to (empty: the whole company). */
export async function scopeRoots(db: Db, userId: number): Promise<number[]> {
  const rows = await withPeopleTables(db).selectFrom('admin_scopes').select('department_id').where('user_id', '=', userId).execute();
  return rows.map((r) => Number(r.department_id));
}

export async function scopesOf(db: Db, userIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (userIds.length === 0) return out;
  const rows = await withPeopleTables(db).selectFrom('admin_scopes').select(['user_id', 'department_id']).where('user_id', 'in', userIds).execute();
  for (const r of rows) out.set(Number(r.user_id), [...(out.get(Number(r.user_id)) ?? []), Number(r.department_id)]);
  return out;
}

export async function setScope(db: Db, userId: number, departments: number[]): Promise<void> {
  const p = withPeopleTables(db);
  await p.deleteFrom('admin_scopes').where('user_id', '=', userId).execute();
  if (departments.length > 0) await p.insertInto('admin_scopes').values(departments.map((d) => ({ user_id: userId, department_id: d }))).execute();
}

export async function departments(db: Db, companyId: number) {
  const r = await sql<{ id: number; parent_id: number | null; name: string; sort: number; people: number }>`
    SELECT d.id, d.parent_id, d.name, d.sort, (SELECT count(*)::int FROM users u WHERE u.department_id = d.id) AS people
    FROM departments d WHERE d.company_id = ${companyId} ORDER BY d.sort, d.name, d.id`.execute(db);
  return r.rows.map((d) => ({ ...d, id: Number(d.id), parent_id: d.parent_id === null ? null : Number(d.parent_id) }));
}

export async function insertDepartment(db: Db, companyId: number, parentId: number, name: string): Promise<number> {
  const row = await db.insertInto('departments').values({ company_id: companyId, parent_id: parentId, name }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}
export async function updateDepartment(db: Db, companyId: number, id: number, v: { name?: string; parent_id?: number }): Promise<void> {
  await db.updateTable('departments').set(v).where('company_id', '=', companyId).where('id', '=', id).execute();
}
export async function deleteDepartment(db: Db, companyId: number, id: number): Promise<void> {
  await db.deleteFrom('departments').where('company_id', '=', companyId).where('id', '=', id).execute();
}
export async function departmentHasContent(db: Db, id: number): Promise<boolean> {
  const r = await sql<{ n: number }>`SELECT (SELECT count(*) FROM users WHERE department_id = ${id}) + (SELECT count(*) FROM departments WHERE parent_id = ${id}) AS n`.execute(db);
  return Number(r.rows[0]!.n) > 0;
}

export async function listPeople(db: Db, companyId: number, f: { q?: string; departments: number[] | null; offset: number; limit: number }): Promise<{ rows: PersonRow[]; total: number }> {
  let base = withPeopleTables(db).selectFrom('users').where('company_id', '=', companyId);
  if (f.departments) base = base.where('department_id', 'in', f.departments.length ? f.departments : [-1]);
  if (f.q) {
    const like = `%${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([eb('email', 'like', like), eb(sql`lower(name)`, 'like', like)]));
  }
  const rows = await base.select(PERSON_COLS).orderBy('email').offset(f.offset).limit(f.limit).execute();
  const { n } = await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

export async function person(db: Db, companyId: number, id: number): Promise<PersonRow | undefined> {
  return withPeopleTables(db).selectFrom('users').select(PERSON_COLS).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

export async function updatePerson(db: Db, companyId: number, id: number, v: Partial<{ name: string; job_title: string; phone: string; department_id: number | null; quota_bytes: number; status: 'active' | 'disabled'; role: 'user' | 'admin'; password_hash: string; password_changed_at: Date }>): Promise<void> {
  if (Object.keys(v).length === 0) return;
  await db.updateTable('users').set(v).where('company_id', '=', companyId).where('id', '=', id).execute();
}

export async function dropSessions(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Whether an address is already a mailbox, alias or group anywhere (addresses are global). */
export async function addressTaken(db: Db, address: string): Promise<boolean> {
  const r = await sql<{ n: number }>`SELECT (SELECT count(*) FROM users WHERE email = ${address}) + (SELECT count(*) FROM aliases WHERE address = ${address})
    + (SELECT count(*) FROM mail_groups WHERE address = ${address}) AS n`.execute(db);
  return Number(r.rows[0]!.n) > 0;
}

export async function companyDomain(db: Db, companyId: number, name: string) {
  return db.selectFrom('domains').select('id').where('company_id', '=', companyId).where('name', '=', name).executeTakeFirst();
}
export async function rootDepartment(db: Db, companyId: number): Promise<number | null> {
  const r = await db.selectFrom('departments').select('id').where('company_id', '=', companyId).where('parent_id', 'is', null).orderBy('id').executeTakeFirst();
  return r ? Number(r.id) : null;
}

export async function allocated(db: Db, companyId: number, exceptUserId = 0): Promise<number> {
  const r = await sql<{ b: number }>`SELECT coalesce(sum(quota_bytes), 0)::bigint AS b FROM users WHERE company_id = ${companyId} AND id <> ${exceptUserId}`.execute(db);
  return Number(r.rows[0]!.b);
}

/** Removes a user's mail and files and returns the blob references they held, for the caller to drop. */
export async function deleteUserData(db: Db, userId: number): Promise<{ mail: { blob_hash: string; content_id: number }[]; files: Map<string, number> }> {
  const mail = await db.deleteFrom('messages').where('user_id', '=', userId).returning(['blob_hash', 'content_id']).execute();
  const files = await sql<{ blob_hash: string }>`DELETE FROM disk_nodes WHERE user_id = ${userId} AND blob_hash IS NOT NULL RETURNING blob_hash`.execute(db);
  const counts = new Map<string, number>();
  for (const f of files.rows) counts.set(f.blob_hash, (counts.get(f.blob_hash) ?? 0) + 1);
  return { mail, files: counts };
}
export async function deleteUser(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

export async function quotaSummary(db: Db, companyId: number) {
  const p = withPeopleTables(db);
  const t = await p.selectFrom('users').where('company_id', '=', companyId)
    .select(sql<number>`coalesce(sum(quota_bytes), 0)::bigint`.as('allocated')).select(sql<number>`coalesce(sum(used_bytes + disk_bytes), 0)::bigint`.as('used'))
    .select(sql<number>`count(*)::int`.as('people')).executeTakeFirstOrThrow();
  const near = await p.selectFrom('users').select(['id', 'email', 'quota_bytes', 'used_bytes', 'disk_bytes', 'quota_level'])
    .where('company_id', '=', companyId).where('quota_level', '>=', 85).orderBy('quota_level', 'desc').orderBy('email').limit(50).execute();
  return { allocated: Number(t.allocated), used: Number(t.used), people: Number(t.people), near };
}
export async function setCompanyQuota(db: Db, companyId: number, bytes: number | null): Promise<void> {
  await withPeopleTables(db).updateTable('companies').set({ quota_bytes: bytes }).where('id', '=', companyId).execute();
}
