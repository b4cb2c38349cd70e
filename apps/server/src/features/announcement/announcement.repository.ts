import { sql, type ColumnType, type Generated } from 'kysely';
import type { Db } from '../../db/connect.js';

// The tables of 020-admin-migrate.ts (announcement part), scoped by company_id throughout.

type Tables = {
  announcements: { id: Generated<number>; company_id: number; author_id: number | null; title: string; body: string; department_ids: ColumnType<number[], number[] | undefined, number[]>; created_at: Generated<Date> };
  announcement_reads: { announcement_id: number; user_id: number; read_at: Generated<Date> };
};
const t = (db: Db) => db.withTables<Tables>();

export async function departmentsExist(db: Db, companyId: number, ids: number[]): Promise<boolean> {
  if (ids.length === 0) return true;
  const r = await db.selectFrom('departments').select(sql<number>`count(*)::int`.as('n')).where('company_id', '=', companyId).where('id', 'in', ids).executeTakeFirstOrThrow();
  return r.n === new Set(ids).size;
}

export async function insert(db: Db, v: { companyId: number; authorId: number; title: string; body: string; departments: number[] }): Promise<number> {
  const r = await t(db).insertInto('announcements').values({ company_id: v.companyId, author_id: v.authorId, title: v.title, body: v.body, department_ids: v.departments })
    .returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function remove(db: Db, companyId: number, id: number): Promise<number> {
  return Number((await t(db).deleteFrom('announcements').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst()).numDeletedRows);
}

/** The users a notice reaches: the whole company, or the named departments and every department under them. */
const audienceOf = (companyId: number) => sql`
  SELECT u.id FROM users u WHERE u.company_id = ${companyId} AND (
    cardinality(a.department_ids) = 0 OR u.department_id IN (
      WITH RECURSIVE sub AS (
        SELECT d.id FROM departments d WHERE d.company_id = ${companyId} AND d.id = ANY(a.department_ids)
        UNION SELECT d.id FROM departments d JOIN sub ON d.parent_id = sub.id)
      SELECT id FROM sub))`;

/** The company's notices with how many people they reach and how many have read them. */
export async function listForAdmin(db: Db, companyId: number) {
  const r = await sql<{ id: number; title: string; body: string; department_ids: number[]; created_at: Date; audience: number; reads: number }>`
    SELECT a.id, a.title, a.body, a.department_ids, a.created_at,
      (SELECT count(*) FROM (${audienceOf(companyId)}) x)::int AS audience,
      (SELECT count(*) FROM announcement_reads r WHERE r.announcement_id = a.id AND r.user_id IN (${audienceOf(companyId)}))::int AS reads
    FROM announcements a WHERE a.company_id = ${companyId} ORDER BY a.id DESC LIMIT 200`.execute(db);
  return r.rows;
}

/** The notices addressed to this user (their department or one above it, or everyone), newest first, with their read mark. */
export async function listForUser(db: Db, companyId: number, userId: number) {
  const r = await sql<{ id: number; title: string; body: string; created_at: Date; read: boolean }>`
    SELECT a.id, a.title, a.body, a.created_at, EXISTS (SELECT 1 FROM announcement_reads r WHERE r.announcement_id = a.id AND r.user_id = ${userId}) AS read
    FROM announcements a WHERE a.company_id = ${companyId} AND ${userId} IN (${audienceOf(companyId)})
    ORDER BY a.id DESC LIMIT 100`.execute(db);
  return r.rows;
}

export async function markRead(db: Db, id: number, userId: number): Promise<void> {
  await t(db).insertInto('announcement_reads').values({ announcement_id: id, user_id: userId }).onConflict((oc) => oc.doNothing()).execute();
}
