import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

export async function departments(db: Db, companyId: number) {
  return db.selectFrom('departments as d').select(['d.id', 'd.name', 'd.parent_id'])
    .select(sql<number>`(SELECT count(*)::int FROM users u WHERE u.department_id = d.id AND u.status = 'active')`.as('members'))
    .where('d.company_id', '=', companyId).orderBy('d.sort').orderBy('d.id').execute();
}

/** A department and all below it. */
export async function subtree(db: Db, companyId: number, deptId: number): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    WITH RECURSIVE t AS (
      SELECT id FROM departments WHERE company_id = ${companyId} AND id = ${deptId}
      UNION ALL SELECT d.id FROM departments d JOIN t ON d.parent_id = t.id)
    SELECT id FROM t`.execute(db);
  return rows.rows.map((r) => r.id);
}

const memberColumns = ['u.id', 'u.name', 'u.email', 'u.department_id', 'u.job_title', 'u.phone', 'u.role'] as const;

export async function members(db: Db, companyId: number, f: { deptIds?: number[]; q: string; alsoIds?: number[] }, limit: number, offset: number) {
  let q = db.selectFrom('users as u').leftJoin('departments as d', 'd.id', 'u.department_id')
    .where('u.company_id', '=', companyId).where('u.status', '=', 'active');
  if (f.deptIds) q = q.where('u.department_id', 'in', f.deptIds.length > 0 ? f.deptIds : [-1]);
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const also = f.alsoIds ?? [];
    q = q.where((eb) => eb.or([eb('u.name', 'ilike', like), eb('u.email', 'ilike', like), eb('u.job_title', 'ilike', like), eb('u.phone', 'ilike', like), eb('d.name', 'ilike', like),
      ...(also.length > 0 ? [eb('u.id', 'in', also)] : [])]));
  }
  const [rows, count] = await Promise.all([
    q.select(memberColumns).select(sql<string>`coalesce(d.name, '')`.as('department')).orderBy('u.name').orderBy('u.id').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The company's active members whose names have Chinese characters, for a pinyin search (issue 15). */
export async function chineseNamedMembers(db: Db, companyId: number) {
  return db.selectFrom('users').select(['id', 'name']).where('company_id', '=', companyId).where('status', '=', 'active')
    .where(sql<boolean>`name ~ '[\u3400-\u9fff]'`).limit(50_000).execute();
}

export async function member(db: Db, companyId: number, id: number) {
  return db.selectFrom('users as u').leftJoin('departments as d', 'd.id', 'u.department_id')
    .select(memberColumns).select(sql<string>`coalesce(d.name, '')`.as('department'))
    .where('u.company_id', '=', companyId).where('u.id', '=', id).executeTakeFirst();
}

export async function companyInfo(db: Db, companyId: number) {
  return db.selectFrom('companies').select(['is_demo']).where('id', '=', companyId).executeTakeFirstOrThrow();
}

export async function rootDepartment(db: Db, companyId: number): Promise<number> {
  const row = await db.selectFrom('departments').select('id').where('company_id', '=', companyId).where('parent_id', 'is', null).orderBy('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateMember(db: Db, companyId: number, id: number, v: { name: string; department_id: number; job_title: string; phone: string; role: 'user' | 'admin' }): Promise<void> {
  await db.updateTable('users').set(v).where('company_id', '=', companyId).where('id', '=', id).execute();
}

export async function companyDomain(db: Db, companyId: number) {
  return db.selectFrom('domains').select(['id', 'name']).where('company_id', '=', companyId).orderBy('id').execute();
}
