import type { Db } from '../../db/connect.js';
import { withAuditTables } from '../audit/tables.js';

// Company block/allow lists (migration 019). Admin queries are scoped by company; the
// SMTP cache loads every company's entries at once (company-lists.ts).

export async function entriesOf(db: Db, companyId: number) {
  return withAuditTables(db).selectFrom('company_list_entries').select(['id', 'kind', 'pattern', 'note', 'created_at'])
    .where('company_id', '=', companyId).orderBy('kind').orderBy('pattern').execute();
}

export async function addEntries(db: Db, companyId: number, rows: { kind: 'block' | 'allow'; pattern: string; note: string }[]): Promise<number> {
  if (rows.length === 0) return 0;
  const r = await withAuditTables(db).insertInto('company_list_entries')
    .values(rows.map((x) => ({ company_id: companyId, kind: x.kind, pattern: x.pattern, note: x.note })))
    .onConflict((oc) => oc.columns(['company_id', 'kind', 'pattern']).doUpdateSet((eb) => ({ note: eb.ref('excluded.note') })))
    .returning('id').execute();
  return r.length;
}

export async function deleteEntry(db: Db, companyId: number, id: number): Promise<boolean> {
  const r = await withAuditTables(db).deleteFrom('company_list_entries').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

export async function allEntries(db: Db) {
  return withAuditTables(db).selectFrom('company_list_entries').select(['id', 'company_id', 'kind', 'pattern', 'note', 'created_at']).execute();
}

/** Hosted domains of companies that have list entries: the SMTP path finds a recipient's company by its domain. */
export async function domainsOfListed(db: Db) {
  return withAuditTables(db).selectFrom('domains').select(['name', 'company_id'])
    .where('company_id', 'in', (eb) => eb.selectFrom('company_list_entries').select('company_id').distinct()).execute();
}
