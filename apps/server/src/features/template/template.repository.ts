import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withRuleTables } from '../signature/tables.js';

/** Who a template or category belongs to: one mailbox, or a whole company (kept by its admin). */
export type Owner = { kind: 'user'; id: number } | { kind: 'company'; id: number };
const col = (o: Owner) => (o.kind === 'user' ? 'user_id' : 'company_id') as 'user_id' | 'company_id';
const ownerValues = (o: Owner) => (o.kind === 'user' ? { user_id: o.id, company_id: null } : { user_id: null, company_id: o.id });

const tcols = ['id', 'category_id', 'name', 'subject', 'html', 'updated_at'] as const;

export async function listCategories(db: Db, o: Owner) {
  return withRuleTables(db).selectFrom('template_categories').select(['id', 'name']).where(col(o), '=', o.id).orderBy(sql`lower(name)`).orderBy('id').execute();
}

export async function findCategory(db: Db, o: Owner, id: number) {
  return withRuleTables(db).selectFrom('template_categories').select(['id', 'name']).where(col(o), '=', o.id).where('id', '=', id).executeTakeFirst();
}

export async function categoryNameTaken(db: Db, o: Owner, name: string, exceptId?: number): Promise<boolean> {
  let q = withRuleTables(db).selectFrom('template_categories').select('id').where(col(o), '=', o.id).where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertCategory(db: Db, o: Owner, name: string, now: Date) {
  return withRuleTables(db).insertInto('template_categories').values({ ...ownerValues(o), name, created_at: now }).returning(['id', 'name']).executeTakeFirstOrThrow();
}

export async function renameCategory(db: Db, o: Owner, id: number, name: string): Promise<void> {
  await withRuleTables(db).updateTable('template_categories').set({ name }).where(col(o), '=', o.id).where('id', '=', id).execute();
}

export async function deleteCategory(db: Db, o: Owner, id: number): Promise<void> {
  await withRuleTables(db).deleteFrom('template_categories').where(col(o), '=', o.id).where('id', '=', id).execute();
}

export async function listTemplates(db: Db, o: Owner) {
  return withRuleTables(db).selectFrom('templates').select(tcols).where(col(o), '=', o.id).orderBy(sql`lower(name)`).orderBy('id').execute();
}

export async function findTemplate(db: Db, o: Owner, id: number) {
  return withRuleTables(db).selectFrom('templates').select(tcols).where(col(o), '=', o.id).where('id', '=', id).executeTakeFirst();
}

/**
 * Counts the owner's rows of a table under a lock on the owner's row, so two creates at
 * once cannot both pass the limit.
 */
export async function lockAndCount(db: Db, o: Owner, table: 'templates' | 'template_categories'): Promise<number> {
  if (o.kind === 'user') await db.selectFrom('users').select('id').where('id', '=', o.id).forUpdate().execute();
  else await db.selectFrom('companies').select('id').where('id', '=', o.id).forUpdate().execute();
  const r = await withRuleTables(db).selectFrom(table).select(sql<number>`count(*)::int`.as('n')).where(col(o), '=', o.id).executeTakeFirstOrThrow();
  return r.n;
}

export async function insertTemplate(db: Db, o: Owner, v: { category_id: number | null; name: string; subject: string; html: string }, now: Date) {
  return withRuleTables(db).insertInto('templates').values({ ...ownerValues(o), ...v, created_at: now, updated_at: now }).returning(tcols).executeTakeFirstOrThrow();
}

export async function updateTemplate(db: Db, o: Owner, id: number, v: { category_id?: number | null; name?: string; subject?: string; html?: string }, now: Date): Promise<void> {
  await withRuleTables(db).updateTable('templates').set({ ...v, updated_at: now }).where(col(o), '=', o.id).where('id', '=', id).execute();
}

export async function deleteTemplate(db: Db, o: Owner, id: number): Promise<void> {
  await withRuleTables(db).deleteFrom('templates').where(col(o), '=', o.id).where('id', '=', id).execute();
}
