import { CalendarInvite, envelope, InviteAnswerInput, InviteQuery } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { InviteService } from './invite.service.js';

/** The invitation a mail carries (the read page shows it) and the user's answer to it. */
export function inviteRoutes(app: App, invites: InviteService): void {
  const tags = ['calendar'];
  app.get('/h5/calendar/invite', { schema: { tags, querystring: InviteQuery, response: { 200: envelope(CalendarInvite) } } }, async (req) =>
    ok(await invites.inviteOf(caller(req).userId, req.query.id, req.query.tz)));
  app.post('/h5/calendar/invite/answer', { schema: { tags, body: InviteAnswerInput, response: { 200: envelope(CalendarInvite) } } }, async (req) =>
    ok(await invites.answer(caller(req).userId, req.body.id, req.body.answer, req.body.tz)));
}
