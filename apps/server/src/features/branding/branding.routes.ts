import { Branding, BrandingBody, envelope } from '@mailwing/shared';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { BrandingService } from './branding.service.js';

/** A logo is a data: image of up to LOGO_MAX characters, more than the 1 MB default allows for. */
const bodyLimit = 512 * 1024;

export function brandingRoutes(app: App, branding: BrandingService): void {
  const tags = ['admin'];
  app.get('/h5/admin/branding', { schema: { tags, response: { 200: envelope(Branding) } } }, async (req) =>
    ok(await branding.get(companyAdmin(req).companyId)));
  app.post('/h5/admin/branding', { bodyLimit, schema: { tags, body: BrandingBody, response: { 200: envelope(Branding) } } }, async (req) =>
    ok(await branding.save(companyAdmin(req).companyId, req.body)));
  // The login page asks before anyone is signed in: by ?domain= when given, else by the Host it was opened on.
  app.get('/h5/login/branding', {
    config: { public: true },
    schema: { tags: ['auth'], querystring: z.object({ domain: z.string().max(253).optional() }), response: { 200: envelope(Branding) } },
  }, async (req, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return ok(await branding.forHost(req.query.domain || req.headers.host || ''));
  });
}
