import type { Db } from '../../db/connect.js';
import { withPeopleTables, type SendPolicy } from '../people/tables.js';

// The only SQL of aliases and mail groups as the console edits them. Every query names the company.

export async function aliases(db: Db, companyId: number, departments: number[] | null) {
  let q = db.selectFrom('aliases').innerJoin('users', 'users.id', 'aliases.user_id')
    .select(['aliases.id', 'aliases.address', 'aliases.user_id', 'users.email', 'users.department_id']).where('aliases.company_id', '=', companyId);
  if (departments) q = q.where('users.department_id', 'in', departments.length ? departments : [-1]);
  return q.orderBy('aliases.address').execute();
}
export async function alias(db: Db, companyId: number, id: number) {
  return db.selectFrom('aliases').innerJoin('users', 'users.id', 'aliases.user_id').select(['aliases.id', 'users.department_id'])
    .where('aliases.company_id', '=', companyId).where('aliases.id', '=', id).executeTakeFirst();
}
export async function insertAlias(db: Db, companyId: number, address: string, userId: number): Promise<number> {
  return Number((await db.insertInto('aliases').values({ company_id: companyId, address, user_id: userId }).returning('id').executeTakeFirstOrThrow()).id);
}
export async function deleteAlias(db: Db, companyId: number, id: number): Promise<void> {
  await db.deleteFrom('aliases').where('company_id', '=', companyId).where('id', '=', id).execute();
}

export async function groups(db: Db, companyId: number, id?: number) {
  const p = withPeopleTables(db);
  let q = p.selectFrom('mail_groups').select(['id', 'address', 'name', 'send_policy', 'department_id']).where('company_id', '=', companyId);
  if (id !== undefined) q = q.where('id', '=', id);
  const rows = await q.orderBy('address').execute();
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [users, depts, outside, senders] = await Promise.all([
    p.selectFrom('mail_group_members').select(['group_id', 'user_id as v']).where('group_id', 'in', ids).execute(),
    p.selectFrom('mail_group_departments').select(['group_id', 'department_id as v']).where('group_id', 'in', ids).execute(),
    p.selectFrom('mail_group_outside').select(['group_id', 'address as v']).where('group_id', 'in', ids).orderBy('address').execute(),
    p.selectFrom('mail_group_senders').select(['group_id', 'address as v']).where('group_id', 'in', ids).orderBy('address').execute(),
  ]);
  const of = (list: { group_id: number; v: number | string }[], g: number) => list.filter((x) => Number(x.group_id) === Number(g)).map((x) => String(x.v));
  return rows.map((r) => ({ ...r, users: of(users, r.id), departments: of(depts, r.id), outside: of(outside, r.id), senders: of(senders, r.id) }));
}
export async function insertGroup(db: Db, companyId: number, v: { address: string; name: string; sendPolicy: SendPolicy }): Promise<number> {
  return Number((await withPeopleTables(db).insertInto('mail_groups').values({ company_id: companyId, address: v.address, name: v.name, send_policy: v.sendPolicy }).returning('id').executeTakeFirstOrThrow()).id);
}
export async function updateGroup(db: Db, companyId: number, id: number, v: { name?: string; send_policy?: SendPolicy }): Promise<void> {
  if (Object.keys(v).length) await withPeopleTables(db).updateTable('mail_groups').set(v).where('company_id', '=', companyId).where('id', '=', id).execute();
}
export async function deleteGroup(db: Db, companyId: number, id: number): Promise<void> {
  await db.deleteFrom('mail_groups').where('company_id', '=', companyId).where('id', '=', id).execute();
}
export async function replaceMembers(db: Db, id: number, kind: 'users' | 'departments' | 'outside' | 'senders', values: (string | number)[]): Promise<void> {
  const p = withPeopleTables(db);
  if (kind === 'users') {
    await p.deleteFrom('mail_group_members').where('group_id', '=', id).execute();
    if (values.length) await p.insertInto('mail_group_members').values(values.map((v) => ({ group_id: id, user_id: Number(v) }))).execute();
  } else if (kind === 'departments') {
    await p.deleteFrom('mail_group_departments').where('group_id', '=', id).execute();
    if (values.length) await p.insertInto('mail_group_departments').values(values.map((v) => ({ group_id: id, department_id: Number(v) }))).execute();
  } else {
    const table = kind === 'outside' ? 'mail_group_outside' : 'mail_group_senders';
    await p.deleteFrom(table).where('group_id', '=', id).execute();
    if (values.length) await p.insertInto(table).values(values.map((v) => ({ group_id: id, address: String(v) }))).execute();
  }
}
export async function companyUsers(db: Db, companyId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('users').select(['id', 'department_id']).where('company_id', '=', companyId).where('id', 'in', ids).execute();
}
export async function companyDepartments(db: Db, companyId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('departments').select('id').where('company_id', '=', companyId).where('id', 'in', ids).execute();
}
