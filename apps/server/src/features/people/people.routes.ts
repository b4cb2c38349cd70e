import {
  CompanyQuotaInput, Created, AdminDepartmentList, DepartmentCreateInput, DepartmentMoveInput, DepartmentRenameInput, Empty, envelope, IdInput,
  ImportInput, PasswordResetInput, PeopleImportResult, PeopleList, PeopleQuery, Person, PersonCreateInput, PersonUpdateInput, QuotaSummary, ScopeInput,
} from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { PeopleService } from './people.service.js';

/** Issue 17: people, departments and quotas in the company console. */
export function peopleRoutes(app: App, people: PeopleService): void {
  const tags = ['admin'];
  const view = (req: Parameters<typeof companyAdmin>[0]) => people.view(companyAdmin(req));
  app.get('/h5/admin/people/list', { schema: { tags, querystring: PeopleQuery, response: { 200: envelope(PeopleList) } } }, async (req) =>
    ok(await people.list(await view(req), req.query)));
  app.get('/h5/admin/people/get', { schema: { tags, querystring: IdInput, response: { 200: envelope(Person) } } }, async (req) =>
    ok(await people.get(await view(req), Number(req.query.id))));
  app.post('/h5/admin/people/create', { schema: { tags, body: PersonCreateInput, response: { 200: envelope(Created) } } }, async (req) =>
    ok({ id: String(await people.createUser(await view(req), req.body)) }));
  app.post('/h5/admin/people/update', { schema: { tags, body: PersonUpdateInput, response: { 200: envelope(Person) } } }, async (req) =>
    ok(await people.update(await view(req), req.body)));
  app.post('/h5/admin/people/delete', { schema: { tags, body: IdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await people.remove(await view(req), Number(req.body.id));
    return ok({});
  });
  app.post('/h5/admin/people/reset-password', { schema: { tags, body: PasswordResetInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await people.resetPassword(await view(req), Number(req.body.id), req.body.password);
    return ok({});
  });
  app.post('/h5/admin/people/scope', { schema: { tags, body: ScopeInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await people.setScope(await view(req), Number(req.body.id), req.body.departments.map(Number));
    return ok({});
  });
  // 1,000 rows of CSV fit well inside 2 MB.
  app.post('/h5/admin/people/import', { bodyLimit: 2 * 1024 * 1024, schema: { tags, body: ImportInput, response: { 200: envelope(PeopleImportResult) } } }, async (req) =>
    ok(await people.importCsv(await view(req), req.body.csv)));

  app.get('/h5/admin/departments/list', { schema: { tags, response: { 200: envelope(AdminDepartmentList) } } }, async (req) =>
    ok(await people.departments(await view(req))));
  app.post('/h5/admin/departments/create', { schema: { tags, body: DepartmentCreateInput, response: { 200: envelope(Created) } } }, async (req) =>
    ok(await people.createDepartment(await view(req), Number(req.body.parentId), req.body.name)));
  app.post('/h5/admin/departments/rename', { schema: { tags, body: DepartmentRenameInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await people.renameDepartment(await view(req), Number(req.body.id), req.body.name);
    return ok({});
  });
  app.post('/h5/admin/departments/move', { schema: { tags, body: DepartmentMoveInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await people.moveDepartment(await view(req), Number(req.body.id), Number(req.body.parentId));
    return ok({});
  });
  app.post('/h5/admin/departments/delete', { schema: { tags, body: IdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await people.deleteDepartment(await view(req), Number(req.body.id));
    return ok({});
  });

  app.get('/h5/admin/quota/summary', { schema: { tags, response: { 200: envelope(QuotaSummary) } } }, async (req) =>
    ok(await people.quotaSummary(await view(req))));
  app.post('/h5/admin/quota/company', { schema: { tags, body: CompanyQuotaInput, response: { 200: envelope(QuotaSummary) } } }, async (req) =>
    ok(await people.setCompanyQuota(await view(req), req.body.quotaBytes === '' ? null : req.body.quotaBytes)));
}
