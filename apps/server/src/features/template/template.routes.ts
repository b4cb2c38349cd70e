import type { FastifyRequest } from 'fastify';
import {
  CategoryInput, CategoryRenameInput, Empty, envelope, TemplateBook, TemplateCategory, TemplateIdInput, TemplateInput, TemplateSaved,
  TemplateShelf, TemplateUpdateInput,
} from '@mailwing/shared';
import { forbidden } from '../../errors.js';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { Owner, TemplateService } from './template.service.js';

/**
 * One set of write routes per owner: `/h5/template/…` for the caller's own templates,
 * `/h5/admin/templates/…` for the company's, which only the company's admin may change
 * (everyone in the company reads them through template/list).
 */
export function templateRoutes(app: App, templates: TemplateService): void {
  app.get('/h5/template/list', { schema: { tags: ['template'], response: { 200: envelope(TemplateBook) } } }, async (req) => {
    const me = caller(req);
    return ok(await templates.book(me.userId, me.companyId));
  });
  app.get('/h5/admin/templates/list', { schema: { tags: ['admin'], response: { 200: envelope(TemplateShelf) } } }, async (req) =>
    ok(await templates.shelf(companyOwner(req))));
  writeRoutes(app, templates, '/h5/template', ['template'], (req) => ({ kind: 'user', id: caller(req).userId }));
  writeRoutes(app, templates, '/h5/admin/templates', ['admin'], companyOwner);
}

function companyOwner(req: FastifyRequest): Owner {
  const me = caller(req);
  if (me.role !== 'admin') throw forbidden('Only the company administrator can change company templates', 'admin.required');
  return { kind: 'company', id: me.companyId };
}

function writeRoutes(app: App, templates: TemplateService, base: string, tags: string[], owner: (req: FastifyRequest) => Owner): void {
  const saved = { response: { 200: envelope(TemplateSaved) } };
  const category = { response: { 200: envelope(TemplateCategory) } };
  const empty = { response: { 200: envelope(Empty) } };
  app.post(`${base}/create`, { schema: { tags, body: TemplateInput, ...saved } }, async (req) => ok(await templates.create(owner(req), req.body)));
  app.post(`${base}/update`, { schema: { tags, body: TemplateUpdateInput, ...saved } }, async (req) => {
    const { id, ...v } = req.body;
    return ok(await templates.update(owner(req), id, v));
  });
  app.post(`${base}/delete`, { schema: { tags, body: TemplateIdInput, ...empty } }, async (req) => {
    await templates.remove(owner(req), req.body.id);
    return ok({});
  });
  app.post(`${base}/category-create`, { schema: { tags, body: CategoryInput, ...category } }, async (req) =>
    ok(await templates.createCategory(owner(req), req.body.name)));
  app.post(`${base}/category-rename`, { schema: { tags, body: CategoryRenameInput, ...category } }, async (req) =>
    ok(await templates.renameCategory(owner(req), req.body.id, req.body.name)));
  app.post(`${base}/category-delete`, { schema: { tags, body: TemplateIdInput, ...empty } }, async (req) => {
    await templates.removeCategory(owner(req), req.body.id);
    return ok({});
  });
}
