import {
  AuditDecided, AuditDecideInput, AuditLinkInput, AuditLinkQuery, AuditLinkView, AuditLogList, AuditRuleInput, AuditRuleList, Empty, envelope,
  HeldList, HeldPreview, HeldQuery, IdInput, PeopleReasons, SentAudit, SentAuditQuery,
} from '@mailwing/shared';
import { forbidden } from '../../errors.js';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { PeopleService } from '../people/people.service.js';
import type { AuditService } from './audit.service.js';

/**
 * Outgoing-mail audit. /h5/admin/audit/* is the admin's (rules, log); /h5/audit/* is the
 * auditor's (any colleague a rule names) and the sender's; /h5/audit/link works without a
 * session, on the single-use token from the notification mail.
 */
export function auditRoutes(app: App, audit: AuditService, people: PeopleService): void {
  const tags = ['audit'];
  // Spec §6: a department admin manages only rules about people of their subtree (AuditService.inScope).
  const view = (req: Parameters<typeof companyAdmin>[0]) => people.view(companyAdmin(req));
  app.get('/h5/admin/audit/rules', { schema: { tags, response: { 200: envelope(AuditRuleList) } } }, async (req) => {
    return ok(await audit.rules(await view(req)));
  });
  app.post('/h5/admin/audit/rule-save', { schema: { tags, body: AuditRuleInput, response: { 200: envelope(z.object({ id: z.string() })) } } }, async (req) => {
    return ok(await audit.saveRule(await view(req), req.body));
  });
  app.post('/h5/admin/audit/rule-delete', { schema: { tags, body: IdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await audit.deleteRule(await view(req), Number(req.body.id));
    return ok({});
  });
  app.get('/h5/admin/audit/log', { schema: { tags, response: { 200: envelope(AuditLogList) } } }, async (req) => {
    const v = await view(req);
    if (!v.companyWide) throw forbidden('Only a company-wide admin can read the whole audit log', PeopleReasons.outOfScope);
    return ok(await audit.log(v.me));
  });

  app.get('/h5/audit/held', { schema: { tags, querystring: HeldQuery, response: { 200: envelope(HeldList) } } }, async (req) =>
    ok(await audit.held(caller(req), req.query.open, req.query.page, req.query.size)));
  app.get('/h5/audit/preview', { schema: { tags, querystring: IdInput, response: { 200: envelope(HeldPreview) } } }, async (req) =>
    ok(await audit.preview(caller(req), Number(req.query.id))));
  app.post('/h5/audit/decide', { schema: { tags, body: AuditDecideInput, response: { 200: envelope(AuditDecided) } } }, async (req) =>
    ok({ state: await audit.decide(caller(req), Number(req.body.id), req.body.action, req.body.reason) }));
  app.get('/h5/audit/sent', { schema: { tags, querystring: SentAuditQuery, response: { 200: envelope(SentAudit) } } }, async (req) =>
    ok(await audit.ofSent(caller(req), Number(req.query.mid))));

  app.get('/h5/audit/link', { config: { public: true }, schema: { tags, querystring: AuditLinkQuery, response: { 200: envelope(AuditLinkView) } } }, async (req) =>
    ok(await audit.linkView(req.query.token)));
  app.post('/h5/audit/link', { config: { public: true }, schema: { tags, body: AuditLinkInput, response: { 200: envelope(AuditDecided) } } }, async (req) =>
    ok({ state: await audit.linkDecide(req.body.token, req.body.reason) }));
}
