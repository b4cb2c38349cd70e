import { AdminAnnouncementList, AnnouncementIdInput, AnnouncementList, Empty, envelope, PublishAnnouncementInput } from '@mailwing/shared';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { AnnouncementService } from './announcement.service.js';

/** Announcements: published in the admin console (pages/admin/announcements), read by everyone (banner and list). */
export function announcementRoutes(app: App, notices: AnnouncementService): void {
  const t = ['announcement'];
  app.post('/h5/admin/announcement/publish', { schema: { tags: t, body: PublishAnnouncementInput, response: { 200: envelope(z.object({ id: z.string() })) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok({ id: await notices.publish(me.companyId, me.userId, req.body) });
  });
  app.get('/h5/admin/announcement/list', { schema: { tags: t, response: { 200: envelope(AdminAnnouncementList) } } }, async (req) => {
    const me = companyAdmin(req);
    return ok(await notices.adminList(me.companyId));
  });
  app.post('/h5/admin/announcement/delete', { schema: { tags: t, body: AnnouncementIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    const me = companyAdmin(req);
    await notices.remove(me.companyId, req.body.id);
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
