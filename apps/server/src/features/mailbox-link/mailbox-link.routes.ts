import { z } from 'zod';
import { BoundMailbox, EmailInput, Empty, envelope, LoginInput, LoginResult, SessionResult } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { MailboxLinkService } from './mailbox-link.service.js';

export function mailboxLinkRoutes(app: App, links: MailboxLinkService): void {
  const tags = ['auth'];
  const client = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

  app.post('/h5/login/bind', { schema: { tags, body: LoginInput, response: { 200: envelope(LoginResult) } } }, async (req) =>
    ok(await links.bind(caller(req), req.body, client(req))));

  app.get('/h5/login/select', { schema: { tags, response: { 200: envelope(z.array(BoundMailbox)) } } }, async (req) => ok(await links.select(caller(req))));

  // Spec §7 writes this one as "//login/app-email-select": the app joins it to its /h5 base
  // as /h5//login/…, which the router accepts because app.ts ignores duplicate slashes.
  app.get('/h5/login/app-email-select', { schema: { tags, querystring: EmailInput, response: { 200: envelope(SessionResult) } } }, async (req) =>
    ok(await links.switchTo(caller(req), req.query.email, client(req))));

  app.post('/h5/login/unbind', { schema: { tags, body: EmailInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await links.unbind(caller(req), req.body.email);
    return ok({});
  });
}
