import { Changed, Conversation, ConversationQuery, ConvIdsInput, ConvMoveInput, ConvReadInput, ConvStarInput, envelope } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { ConversationService } from './conversation.service.js';

/**
 * Issue 14, scope 2. The list's conversation rows come from mail/list (view=conv|auto);
 * these are the stacked read page's mails and the actions on whole conversations.
 * Per-mail actions (mailop/*) keep working on single mails.
 */
export function conversationRoutes(app: App, convs: ConversationService): void {
  const tags = ['mail'];
  const changed = { response: { 200: envelope(Changed) } };
  app.get('/h5/read/conversation', { schema: { tags, querystring: ConversationQuery, response: { 200: envelope(Conversation) } } }, async (req) =>
    ok(await convs.ofMail(caller(req).userId, req.query.mid)));
  app.post('/h5/conv/read', { schema: { tags, body: ConvReadInput, ...changed } }, async (req) =>
    ok({ changed: await convs.markRead(caller(req).userId, req.body.ids, req.body.read, req.body.from) }));
  app.post('/h5/conv/star', { schema: { tags, body: ConvStarInput, ...changed } }, async (req) =>
    ok({ changed: await convs.star(caller(req).userId, req.body.ids, req.body.star, req.body.from) }));
  app.post('/h5/conv/move', { schema: { tags, body: ConvMoveInput, ...changed } }, async (req) =>
    ok({ changed: await convs.move(caller(req).userId, req.body.ids, req.body.to, req.body.from) }));
  app.post('/h5/conv/delete', { schema: { tags, body: ConvIdsInput, ...changed } }, async (req) =>
    ok({ changed: await convs.remove(caller(req).userId, req.body.ids, req.body.from) }));
  app.post('/h5/conv/junk', { schema: { tags, body: ConvIdsInput, ...changed } }, async (req) =>
    ok({ changed: await convs.junk(caller(req).userId, req.body.ids, req.body.from) }));
  app.post('/h5/conv/purge', { schema: { tags, body: ConvIdsInput, ...changed } }, async (req) =>
    ok({ changed: await convs.purge(caller(req).userId, req.body.ids, req.body.from) }));
}
