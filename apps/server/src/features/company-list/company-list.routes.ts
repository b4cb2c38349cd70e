import { PeopleReasons, CompanyList, CompanyListAddInput, CompanyListImported, CompanyListImportInput, CompanyListTest, CompanyListTestQuery, Empty, envelope, IdInput } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import { forbidden } from '../../errors.js';
import type { PeopleService } from '../people/people.service.js';
import type { CompanyListService } from './company-list.service.js';

export function companyListRoutes(app: App, lists: CompanyListService, people: PeopleService): void {
  const tags = ['admin'];
  // Spec §6: the lists screen the whole company's mail, so only a company-wide admin changes
  // them; a department admin may read them and use the test tool.
  const companyWide = async (req: Parameters<typeof companyAdmin>[0]) => {
    const v = await people.view(companyAdmin(req));
    if (!v.companyWide) throw forbidden('Only a company-wide admin can change the company lists', PeopleReasons.outOfScope);
    return v.me;
  };
  app.get('/h5/admin/lists', { schema: { tags, response: { 200: envelope(CompanyList) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await lists.list(me.companyId));
  });
  app.post('/h5/admin/lists/add', { schema: { tags, body: CompanyListAddInput, response: { 200: envelope(Empty) } } }, async (req) => {
    const me = await companyWide(req);
    await lists.add(me.companyId, req.body);
    return ok({});
  });
  app.post('/h5/admin/lists/delete', { schema: { tags, body: IdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    const me = await companyWide(req);
    await lists.remove(me.companyId, Number(req.body.id));
    return ok({});
  });
  app.post('/h5/admin/lists/import', { bodyLimit: 2_100_000, schema: { tags, body: CompanyListImportInput, response: { 200: envelope(CompanyListImported) } } }, async (req) => {
    const me = await companyWide(req);
    return ok(await lists.importCsv(me.companyId, req.body.csv));
  });
  app.get('/h5/admin/lists/test', { schema: { tags, querystring: CompanyListTestQuery, response: { 200: envelope(CompanyListTest) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await lists.test(me.companyId, req.query.address, req.query.ip));
  });
}
