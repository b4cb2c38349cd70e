import { AdminAnnouncementList, AnnouncementIdInput, AnnouncementList, Empty, envelope, PublishAnnouncementInput } from '@mailwing/shared';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { PeopleService } from '../people/people.service.js';
import type { AnnouncementService } from './announcement.service.js';

/** Announcements: published in the admin console (pages/admin/announcements), read by everyone (banner and list). */
export function announcementRoutes(app: App, notices: AnnouncementService, people: PeopleService): void {
  const t = ['announcement'];
  // Spec §6: a department admin publishes to, lists and deletes notices of their subtree only.
  const view = (req: Parameters<typeof companyAdmin>[0]) => people.view(companyAdmin(req));
  app.post('/h5/admin/announcement/publish', { schema: { tags: t, body: PublishAnnouncementInput, response: { 200: envelope(z.object({ id: z.string() })) } } }, async (req) => {
    const v = await view(req);
    return ok({ id: await notices.publish(v.companyId, v.me.userId, req.body, v.departments) });
  });
  app.get('/h5/admin/announcement/list', { schema: { tags: t, response: { 200: envelope(AdminAnnouncementList) } } }, async (req) => {
    const v = await view(req);
    return ok(await notices.adminList(v.companyId, v.departments));
  });
  app.post('/h5/admin/announcement/delete', { schema: { tags: t, body: AnnouncementIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    const v = await view(req);
    await notices.remove(v.companyId, req.body.id, v.departments);
    return ok({});
  });
  app.get('/h5/announcement/list', { schema: { tags: t, response: { 200: envelope(AnnouncementList) } } }, async (req) => {
    const me = caller(req);
    return ok(await notices.list(me.companyId, me.userId));
  });
  app.post('/h5/announcement/read', { schema: { tags: t, body: AnnouncementIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    const me = caller(req);
    await notices.markRead(me.companyId, me.userId, req.body.id);
    return ok({});
  });
}
