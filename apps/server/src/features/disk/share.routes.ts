import { Empty, envelope, Share, ShareCreateInput, ShareDownloadInput, ShareIdInput, ShareInfo, ShareInfoQuery } from '@mailwing/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobService } from '../../blob/blob.service.js';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import { sendUserStream } from '../../http/user-content.js';
import type { ShareService } from './share.service.js';

export function shareRoutes(app: App, shares: ShareService, blobs: BlobService): void {
  const tags = ['disk'];
  app.post('/h5/disk/share/create', { schema: { tags, body: ShareCreateInput, response: { 200: envelope(Share) } } }, async (req) =>
    ok(await shares.create(caller(req).userId, req.body.id, req.body.days, req.body.password)));
  app.post('/h5/disk/share/revoke', { schema: { tags, body: ShareIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await shares.revoke(caller(req).userId, req.body.id);
    return ok({});
  });

  // Public: whoever holds the link (a mail's recipient) needs no session.
  const pub = { public: true };
  app.get('/h5/disk/share/info', { config: pub, schema: { tags, querystring: ShareInfoQuery, response: { 200: envelope(ShareInfo) } } }, async (req) =>
    ok(await shares.info(req.query.s)));
  const download = async (req: FastifyRequest, reply: FastifyReply, s: string, password: string | undefined) => {
    const file = await shares.open(s, password);
    return sendUserStream(reply, {
      name: file.name, size: file.size, declaredType: file.contentType, head: await blobs.head(file.blobHash, 8192),
      open: (range) => blobs.stream(file.blobHash, range),
    }, { inline: false, cache: 'private, no-store', range: req.headers.range });
  };
  app.get('/h5/disk/share/download', { config: pub, schema: { tags, querystring: ShareInfoQuery } }, async (req, reply) =>
    download(req, reply, req.query.s, undefined));
  // The password goes in a POST body, never in a URL that lands in logs and history.
  app.post('/h5/disk/share/download', { config: pub, schema: { tags, body: ShareDownloadInput } }, async (req, reply) =>
    download(req, reply, req.body.s, req.body.password));
}
