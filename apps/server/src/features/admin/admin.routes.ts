import { DomainList, envelope } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { companyAdmin } from './admin-guard.js';
import { domainRecords } from './domain-records.js';
import { domainsOf } from './domain.repository.js';

/** The first piece of the admin console: the DNS records each hosted domain needs (DKIM now; SPF/DMARC checks come with the console). */
export function adminRoutes(app: App, db: Db, mailHost: string): void {
  app.get('/h5/admin/domains', { schema: { tags: ['admin'], response: { 200: envelope(DomainList) } } }, async (req) => {
    const me = companyAdmin(req);
    const rows = await domainsOf(db, me.companyId);
    return ok({
      list: rows.map((d) => domainRecords(d, mailHost)),
    });
  });
}
