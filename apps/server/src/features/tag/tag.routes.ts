import { Changed, CreateTagInput, Empty, envelope, Tag, TagIdInput, TagList, TagMailInput, UpdateTagInput } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { TagService } from './tag.service.js';

export function tagRoutes(app: App, tags: TagService): void {
  const t = ['tag'];
  app.get('/h5/tag/list', { schema: { tags: t, response: { 200: envelope(TagList) } } }, async (req) => ok(await tags.list(caller(req).userId)));
  app.post('/h5/tag/create', { schema: { tags: t, body: CreateTagInput, response: { 200: envelope(Tag) } } }, async (req) =>
    ok(await tags.create(caller(req).userId, req.body.name, req.body.color)));
  app.post('/h5/tag/update', { schema: { tags: t, body: UpdateTagInput, response: { 200: envelope(Tag) } } }, async (req) =>
    ok(await tags.update(caller(req).userId, req.body.id, { name: req.body.name, color: req.body.color })));
  app.post('/h5/tag/delete', { schema: { tags: t, body: TagIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await tags.remove(caller(req).userId, req.body.id);
    return ok({});
  });
  app.post('/h5/mailop/tag', { schema: { tags: t, body: TagMailInput, response: { 200: envelope(Changed) } } }, async (req) =>
    ok({ changed: await tags.apply(caller(req).userId, req.body.ids, req.body.tag, req.body.on) }));
}
