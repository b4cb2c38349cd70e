import { envelope, WelcomeBody, WelcomePreview, WelcomeTemplate } from '@mailwing/shared';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { WelcomeService } from './welcome.service.js';

const PreviewBody = z.object({ subject: z.string().max(1000).optional(), body: z.string().max(40_000).optional() });

export function welcomeRoutes(app: App, welcome: WelcomeService): void {
  const tags = ['admin'];
  app.get('/h5/admin/welcome', { schema: { tags, response: { 200: envelope(WelcomeTemplate) } } }, async (req) =>
    ok(await welcome.get(companyAdmin(req).companyId)));
  app.post('/h5/admin/welcome', { schema: { tags, body: WelcomeBody, response: { 200: envelope(WelcomeTemplate) } } }, async (req) =>
    ok(await welcome.save(companyAdmin(req).companyId, req.body)));
  // Shown as the admin would get it; unsaved text may be sent to preview it before saving.
  app.post('/h5/admin/welcome/preview', { schema: { tags, body: PreviewBody, response: { 200: envelope(WelcomePreview) } } }, async (req) => {
    const me = companyAdmin(req);
    const { subject, body } = req.body;
    return ok(await welcome.preview(me.companyId, me.userId, subject !== undefined && body !== undefined ? { subject, body } : undefined));
  });
}
