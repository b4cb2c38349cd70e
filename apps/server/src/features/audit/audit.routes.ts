import {
  AuditDecided, AuditDecideInput, AuditLinkInput, AuditLinkQuery, AuditLinkView, AuditLogList, AuditRuleInput, AuditRuleList, Empty, envelope,
  HeldList, HeldPreview, HeldQuery, IdInput, SentAudit, SentAuditQuery,
} from '@mailwing/shared';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { AuditService } from './audit.service.js';

/**
 * Outgoing-mail audit. /h5/admin/audit/* is the admin's (rules, log); /h5/audit/* is the
 * auditor's (any colleague a rule names) and the sender's; /h5/audit/link works without a
 * session, on the single-use token from the notification mail.
 */
export function auditRoutes(app: App, audit: AuditService): void {
  const tags = ['audit'];
  app.get('/h5/admin/audit/rules', { schema: { tags, response: { 200: envelope(AuditRuleList) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await audit.rules(me));
  });
  app.post('/h5/admin/audit/rule-save', { schema: { tags, body: AuditRuleInput, response: { 200: envelope(z.object({ id: z.string() })) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await audit.saveRule(me, req.body));
  });
  app.post('/h5/admin/audit/rule-delete', { schema: { tags, body: IdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    const me = companyAdmin(req);
    await audit.deleteRule(me, Number(req.body.id));
    return ok({});
  });
  app.get('/h5/admin/audit/log', { schema: { tags, response: { 200: envelope(AuditLogList) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await audit.log(me));
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
