import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { caller, type App } from '../../http/types.js';
import { TUS_PATH, type DiskUploadService } from './disk-upload.service.js';

/**
 * tus 1.0.0 under /h5/disk/tus, behind the same session auth as every /h5 route
 * (the client sends `Authorization: Bearer`). tus speaks in HTTP statuses, so these
 * routes answer refusals with a 4xx status and our envelope as the body, and hand
 * the raw request to @tus/server, which streams the body to its file store itself.
 */
export async function diskTusRoutes(app: App, uploads: DiskUploadService): Promise<void> {
  await app.register(async (sub) => {
    // Leave PATCH bodies unread: tus reads the socket itself.
    sub.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
    const schema = { hide: true };

    const pass = async (req: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      await uploads.tus.handle(req.raw, reply.raw);
    };
    const refuse = (reply: FastifyReply, status: number, err: AppError) =>
      reply.status(status).header('Tus-Resumable', '1.0.0').send({ code: err.code, error: err.detail, reason: err.reason, reasons: err.extra?.reasons });

    sub.post(TUS_PATH, { schema }, async (req, reply) => {
      let id: string;
      try {
        id = await uploads.reserve(caller(req).userId, header(req, 'upload-length'), header(req, 'upload-metadata'));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // 413 for the size rule (tus §creation: "Upload-Length exceeds the maximum"), else 422.
        return refuse(reply, err.reason === 'disk.too_large' ? 413 : 422, err);
      }
      uploads.assign(req.raw, id);
      await pass(req, reply);
      if (reply.raw.statusCode !== 201) await uploads.drop(id);
      return reply;
    });

    sub.route({
      method: ['HEAD', 'PATCH', 'DELETE'], url: `${TUS_PATH}/:id`, schema,
      handler: async (req, reply) => {
        const { id } = req.params as { id: string };
        // Someone else's upload, or one that finished or expired: the same 404.
        if (!(await uploads.owns(caller(req).userId, id))) return reply.status(404).header('Tus-Resumable', '1.0.0').header('Cache-Control', 'no-store').send();
        await pass(req, reply);
        if (req.method === 'DELETE' && reply.raw.statusCode === 204) await uploads.drop(id);
        return reply;
      },
    });
    sub.options(TUS_PATH, { schema, config: { public: true } }, async (req, reply) => pass(req, reply));
  });
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
