import type { Db } from '../../db/connect.js';
import { withConsoleTables } from '../domain-check/tables.js';

const t = (db: Db) => withConsoleTables(db);

export async function ofCompany(db: Db, companyId: number) {
  return t(db).selectFrom('company_branding').select(['display_name', 'color', 'logo']).where('company_id', '=', companyId).executeTakeFirst();
}

export async function save(db: Db, companyId: number, v: { name: string; color: string; logo: string; now: Date }) {
  const set = { display_name: v.name, color: v.color, logo: v.logo, updated_at: v.now };
  await t(db).insertInto('company_branding').values({ company_id: companyId, ...set }).onConflict((oc) => oc.column('company_id').doUpdateSet(set)).execute();
}

/** The company hosting one of these names (the first that is hosted, in the order given). */
export async function companyOfDomain(db: Db, names: string[]): Promise<number | null> {
  if (names.length === 0) return null;
  const rows = await db.selectFrom('domains').select(['company_id', 'name']).where('name', 'in', names).execute();
  for (const n of names) {
    const hit = rows.find((r) => r.name === n);
    if (hit) return hit.company_id;
  }
  return null;
}
