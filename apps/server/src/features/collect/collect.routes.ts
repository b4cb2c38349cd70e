import { CollectAccount, CollectIdInput, CollectList, CollectTestResult, CreateCollectInput, Empty, envelope, TestCollectInput, UpdateCollectInput } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { CollectService, Settings } from './collect.service.js';

const settings = (b: Settings): Settings => ({
  protocol: b.protocol, host: b.host, port: b.port, tls: b.tls, username: b.username, leaveCopy: b.leaveCopy, folder: b.folder, interval: b.interval,
});

/** Other mailboxes to collect from (setting-pop pages). */
export function collectRoutes(app: App, collect: CollectService): void {
  const t = ['collect'];
  app.get('/h5/collect/list', { schema: { tags: t, response: { 200: envelope(CollectList) } } }, async (req) => ok(await collect.list(caller(req).userId)));
  app.get('/h5/collect/get', { schema: { tags: t, querystring: CollectIdInput, response: { 200: envelope(CollectAccount) } } }, async (req) =>
    ok(await collect.get(caller(req).userId, req.query.id)));
  app.post('/h5/collect/test', { schema: { tags: t, body: TestCollectInput, response: { 200: envelope(CollectTestResult) } } }, async (req) => {
    const userId = caller(req).userId;
    const messages = await collect.test(settings(req.body), req.body.password ?? '', req.body.id ? { userId, id: req.body.id } : undefined);
    return ok({ ok: true as const, messages });
  });
  app.post('/h5/collect/create', { schema: { tags: t, body: CreateCollectInput, response: { 200: envelope(CollectAccount) } } }, async (req) =>
    ok(await collect.create(caller(req).userId, settings(req.body), req.body.password)));
  app.post('/h5/collect/update', { schema: { tags: t, body: UpdateCollectInput, response: { 200: envelope(CollectAccount) } } }, async (req) =>
    ok(await collect.update(caller(req).userId, req.body.id, settings(req.body), req.body.password || undefined)));
  app.post('/h5/collect/delete', { schema: { tags: t, body: CollectIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await collect.remove(caller(req).userId, req.body.id);
    return ok({});
  });
  app.post('/h5/collect/resume', { schema: { tags: t, body: CollectIdInput, response: { 200: envelope(CollectAccount) } } }, async (req) =>
    ok(await collect.resume(caller(req).userId, req.body.id)));
  app.post('/h5/collect/check', { schema: { tags: t, body: CollectIdInput, response: { 200: envelope(CollectAccount) } } }, async (req) =>
    ok(await collect.checkNow(caller(req).userId, req.body.id)));
}
