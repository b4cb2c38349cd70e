import type { FastifyReply } from 'fastify';
import {
  AttachQuery, AutoArchive, AutoArchiveInput, Changed, Empty, envelope, FilteredListQuery, FolderInput, NoteInput, IdsInput, ImageProxyQuery, InlineQuery, Mail, MailList, MarkReadInput, MoveInput, ReadQuery, StarInput,
} from '@mailwing/shared';
import { notFound } from '../../errors.js';
import { ok } from '../../http/envelope.js';
import { sendUserFile, userContentHeaders } from '../../http/user-content.js';
import { caller, type App } from '../../http/types.js';
import type { OutboundGuard } from '../../net/guarded-fetch.js';
import { OutboundRefused } from '../../net/ssrf.js';
import { fetchImage } from './image-proxy.js';
import { extractAttachment } from './mail-parse.js';
import type { MessageService } from './message.service.js';

const changed = { response: { 200: envelope(Changed) } };

// A part of a stored mail. The type the sender declared decides nothing: user-content.ts does.
async function sendPart(reply: FastifyReply, raw: Buffer, meta: { index: number; name: string; contentType: string }, inline: boolean, range?: string) {
  const body = await extractAttachment(raw, meta.index);
  if (!body) throw notFound('Attachment');
  return sendUserFile(reply, { body, name: meta.name, declaredType: meta.contentType || '' }, { inline, cache: 'private, max-age=3600', range });
}

export function messageRoutes(app: App, messages: MessageService, opts: { images: OutboundGuard }): void {
  const tags = ['mail'];

  app.get('/h5/mail/list', { schema: { tags, querystring: FilteredListQuery, response: { 200: envelope(MailList) } } }, async (req) =>
    ok(await messages.list(caller(req).userId, req.query)));

  app.get('/h5/read/index', { schema: { tags, querystring: ReadQuery, response: { 200: envelope(Mail) } } }, async (req) => {
    const me = caller(req);
    return ok(await messages.read(me.userId, req.query.mid, { images: req.query.images, token: me.token }));
  });

  app.post('/h5/mailop/read', { schema: { tags, body: MarkReadInput, ...changed } }, async (req) =>
    ok({ changed: await messages.markRead(caller(req).userId, req.body.ids, req.body.read) }));
  app.post('/h5/mailop/read-all', { schema: { tags, body: FolderInput, ...changed } }, async (req) =>
    ok({ changed: await messages.markFolderRead(caller(req).userId, req.body.mid) }));
  app.post('/h5/mailop/star', { schema: { tags, body: StarInput, ...changed } }, async (req) =>
    ok({ changed: await messages.star(caller(req).userId, req.body.ids, req.body.star) }));
  app.post('/h5/mailop/move', { schema: { tags, body: MoveInput, ...changed } }, async (req) =>
    ok({ changed: await messages.move(caller(req).userId, req.body.ids, req.body.to) }));
  app.post('/h5/mailop/delete', { schema: { tags, body: IdsInput, ...changed } }, async (req) =>
    ok({ changed: await messages.remove(caller(req).userId, req.body.ids) }));
  app.post('/h5/mailop/junk', { schema: { tags, body: IdsInput, ...changed } }, async (req) =>
    ok({ changed: await messages.junk(caller(req).userId, req.body.ids) }));
  app.post('/h5/mailop/archive', { schema: { tags, body: IdsInput, ...changed } }, async (req) =>
    ok({ changed: await messages.archive(caller(req).userId, req.body.ids) }));
  app.post('/h5/mailop/note', { schema: { tags, body: NoteInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await messages.setNote(caller(req).userId, req.body.mid, req.body.note);
    return ok({});
  });
  app.get('/h5/setting/auto-archive', { schema: { tags, response: { 200: envelope(AutoArchive) } } }, async (req) =>
    ok({ days: await messages.autoArchiveDays(caller(req).userId) }));
  app.post('/h5/setting/auto-archive', { schema: { tags, body: AutoArchiveInput, response: { 200: envelope(AutoArchive) } } }, async (req) => {
    await messages.setAutoArchiveDays(caller(req).userId, req.body.days);
    return ok({ days: req.body.days });
  });
  app.post('/h5/mailop/purge', { schema: { tags, body: IdsInput, ...changed } }, async (req) =>
    ok({ changed: await messages.purge(caller(req).userId, req.body.ids) }));

  app.get('/h5/attach/download', { schema: { tags, querystring: AttachQuery } }, async (req, reply) => {
    const { raw, meta } = await messages.attachment(caller(req).userId, req.query.id);
    return sendPart(reply, raw, meta, req.query.inline === true, req.headers.range);
  });

  app.get('/h5/read/inline', { schema: { tags, querystring: InlineQuery } }, async (req, reply) => {
    const { raw, meta } = await messages.inlineByCid(caller(req).userId, req.query.mid, req.query.cid);
    return sendPart(reply, raw, meta, true);
  });

  app.get('/h5/read/image', { schema: { tags, querystring: ImageProxyQuery } }, async (req, reply) => {
    if (!(await messages.remoteImageAllowed(caller(req).userId, req.query.mid, req.query.url))) throw notFound('Image');
    // A refused address says so (with its reason); any other failure is just a missing image.
    const image = await fetchImage(req.query.url, opts.images).catch((err: unknown) => {
      if (err instanceof OutboundRefused) throw err;
      return null;
    });
    if (!image) throw notFound('Image');
    return userContentHeaders(reply).header('Content-Type', image.contentType).header('Cache-Control', 'private, max-age=86400').send(image.body);
  });
}
