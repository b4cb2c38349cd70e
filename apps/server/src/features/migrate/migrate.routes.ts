import { PeopleReasons, Empty, envelope, MigrateDetail, MigrateIdInput, MigrateImportInput, MigrateImportResult, MigrateList, MigrateQueued, MigrateRerunInput, MigrateTestInput, MigrateTestResult } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { companyAdmin as guard } from '../admin/admin-guard.js';
import { forbidden } from '../../errors.js';
import type { PeopleService } from '../people/people.service.js';
import type { MigrateService } from './migrate.service.js';

/** Mail migration in the admin console (pages/admin/migrate). */
export function migrateRoutes(app: App, migrate: MigrateService, wake: () => void, people: PeopleService): void {
  const t = ['admin'];
  // Spec §6: migration moves the company (old server's accounts, then the MX switch and
  // "finalise"), so it is a company-wide admin's job; a department admin gets 403.
  const companyAdmin = async (req: Parameters<typeof guard>[0]) => {
    const v = await people.view(guard(req));
    if (!v.companyWide) throw forbidden('Only a company-wide admin can run mail migration', PeopleReasons.outOfScope);
    return v.me;
  };
  app.post('/h5/admin/migrate/test', { schema: { tags: t, body: MigrateTestInput, response: { 200: envelope(MigrateTestResult) } } }, async (req) => {
    await companyAdmin(req);
    const b = req.body;
    return ok(await migrate.test({ host: b.host, port: b.port, tls: b.tls }, b.username, b.password));
  });
  app.post('/h5/admin/migrate/import', { schema: { tags: t, body: MigrateImportInput, response: { 200: envelope(MigrateImportResult) } } }, async (req) => {
    const me = await companyAdmin(req);
    const b = req.body;
    const r = await migrate.importCsv(me.companyId, { host: b.host, port: b.port, tls: b.tls }, b.csv);
    wake();
    return ok(r);
  });
  app.get('/h5/admin/migrate/list', { schema: { tags: t, response: { 200: envelope(MigrateList) } } }, async (req) => {
    const me = await companyAdmin(req);
    return ok(await migrate.list(me.companyId));
  });
  app.get('/h5/admin/migrate/detail', { schema: { tags: t, querystring: MigrateIdInput, response: { 200: envelope(MigrateDetail) } } }, async (req) => {
    const me = await companyAdmin(req);
    return ok(await migrate.detail(me.companyId, req.query.id));
  });
  app.post('/h5/admin/migrate/rerun', { schema: { tags: t, body: MigrateRerunInput, response: { 200: envelope(MigrateQueued) } } }, async (req) => {
    const me = await companyAdmin(req);
    const queued = await migrate.rerun(me.companyId, req.body.id, false);
    wake();
    return ok({ queued });
  });
  app.post('/h5/admin/migrate/finalise', { schema: { tags: t, body: MigrateRerunInput, response: { 200: envelope(MigrateQueued) } } }, async (req) => {
    const me = await companyAdmin(req);
    const queued = await migrate.rerun(me.companyId, req.body.id, true);
    wake();
    return ok({ queued });
  });
  app.post('/h5/admin/migrate/delete', { schema: { tags: t, body: MigrateIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    const me = await companyAdmin(req);
    await migrate.remove(me.companyId, req.body.id);
    return ok({});
  });
}
