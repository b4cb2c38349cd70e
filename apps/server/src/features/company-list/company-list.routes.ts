import { CompanyList, CompanyListAddInput, CompanyListImported, CompanyListImportInput, CompanyListTest, CompanyListTestQuery, Empty, envelope, IdInput } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { CompanyListService } from './company-list.service.js';

export function companyListRoutes(app: App, lists: CompanyListService): void {
  const tags = ['admin'];
  app.get('/h5/admin/lists', { schema: { tags, response: { 200: envelope(CompanyList) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await lists.list(me.companyId));
  });
  app.post('/h5/admin/lists/add', { schema: { tags, body: CompanyListAddInput, response: { 200: envelope(Empty) } } }, async (req) => {
    const me = companyAdmin(req);
    await lists.add(me.companyId, req.body);
    return ok({});
  });
  app.post('/h5/admin/lists/delete', { schema: { tags, body: IdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    const me = companyAdmin(req);
    await lists.remove(me.companyId, Number(req.body.id));
    return ok({});
  });
  app.post('/h5/admin/lists/import', { bodyLimit: 2_100_000, schema: { tags, body: CompanyListImportInput, response: { 200: envelope(CompanyListImported) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await lists.importCsv(me.companyId, req.body.csv));
  });
  app.get('/h5/admin/lists/test', { schema: { tags, querystring: CompanyListTestQuery, response: { 200: envelope(CompanyListTest) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await lists.test(me.companyId, req.query.address, req.query.ip));
  });
}
