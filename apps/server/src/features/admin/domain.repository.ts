import type { Db } from '../../db/connect.js';

export async function domainsOf(db: Db, companyId: number) {
  return db.selectFrom('domains').select(['name', 'dkim_selector', 'dkim_public_key']).where('company_id', '=', companyId).orderBy('name').execute();
}
