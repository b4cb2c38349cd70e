import {
  AutoReply, AutoReplyInput, DryRun, Empty, envelope, Rule, RuleIdInput, RuleInput, RuleJob, RuleJobQuery, RuleList, RuleOrderInput, RunRuleInput, UpdateRuleInput,
} from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { AutoReplyPlanner } from './autoreply.service.js';
import type { MailRuleService } from './mail-rule.service.js';

// Rule bodies have nested lists, so clients send them as JSON (API.md accepts JSON for every POST).
export function mailRuleRoutes(app: App, rules: MailRuleService, autoReply: AutoReplyPlanner, wake: () => void): void {
  const tags = ['mail-rule'];
  const me = (req: { auth: Parameters<typeof caller>[0]['auth'] }) => caller(req).userId;
  app.get('/h5/rule/list', { schema: { tags, response: { 200: envelope(RuleList) } } }, async (req) => ok(await rules.list(me(req))));
  app.post('/h5/rule/create', { schema: { tags, body: RuleInput, response: { 200: envelope(Rule) } } }, async (req) => ok(await rules.create(me(req), req.body)));
  app.post('/h5/rule/update', { schema: { tags, body: UpdateRuleInput, response: { 200: envelope(Rule) } } }, async (req) => ok(await rules.update(me(req), req.body.id, req.body)));
  app.post('/h5/rule/delete', { schema: { tags, body: RuleIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await rules.remove(me(req), req.body.id);
    return ok({});
  });
  app.post('/h5/rule/reorder', { schema: { tags, body: RuleOrderInput, response: { 200: envelope(RuleList) } } }, async (req) => ok(await rules.reorder(me(req), req.body.ids)));
  app.post('/h5/rule/dry-run', { schema: { tags, body: RuleInput, response: { 200: envelope(DryRun) } } }, async (req) => ok(await rules.dryRun(me(req), req.body)));
  app.post('/h5/rule/run', { schema: { tags, body: RunRuleInput, response: { 200: envelope(RuleJob) } } }, async (req) => {
    const job = await rules.run(me(req), req.body.id, req.body.mid);
    wake();
    return ok(job);
  });
  app.get('/h5/rule/job', { schema: { tags, querystring: RuleJobQuery, response: { 200: envelope(RuleJob) } } }, async (req) => ok(await rules.job(me(req), req.query.id)));
  app.get('/h5/autoreply/get', { schema: { tags, response: { 200: envelope(AutoReply) } } }, async (req) => ok(await autoReply.get(me(req))));
  app.post('/h5/autoreply/save', { schema: { tags, body: AutoReplyInput, response: { 200: envelope(AutoReply) } } }, async (req) => ok(await autoReply.save(me(req), req.body)));
}
