import { AddDomainBody, DomainName, DomainStatus, DomainStatusList, Empty, envelope } from '@mailwing/shared';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { DomainCheckService } from './domain-check.service.js';

const Named = z.object({ domain: DomainName });

/** The console's domains (issue 17, scope 1). GET /h5/admin/domains (the records to publish) stays in admin.routes. */
export function domainCheckRoutes(app: App, checks: DomainCheckService): void {
  const tags = ['admin'];
  app.get('/h5/admin/domains/status', { schema: { tags, response: { 200: envelope(DomainStatusList) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok({ list: await checks.list(me.companyId) });
  });
  app.post('/h5/admin/domains/add', { schema: { tags, body: AddDomainBody, response: { 200: envelope(DomainStatus) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await checks.add(me.companyId, req.body.domain));
  });
  app.post('/h5/admin/domains/check', { schema: { tags, body: Named, response: { 200: envelope(DomainStatus) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await checks.checkNow(me.companyId, req.body.domain));
  });
  app.post('/h5/admin/domains/rotate-dkim', { schema: { tags, body: Named, response: { 200: envelope(DomainStatus) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await checks.rotateDkim(me.companyId, req.body.domain));
  });
  app.post('/h5/admin/domains/remove', { schema: { tags, body: Named, response: { 200: envelope(Empty) } } }, async (req) => {
    const me = companyAdmin(req);
    await checks.remove(me.companyId, req.body.domain);
    return ok({});
  });
}
