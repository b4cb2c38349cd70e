import { Code } from '@mailwing/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';

const json = (v: unknown) => JSON.stringify(v);

/**
 * One place that turns failures into the envelope (API.md): HTTP 200 with a code.
 * Transport problems (body too large, bad content type, unknown route) keep their
 * HTTP status. Stack traces never reach the client.
 */
export function errorHandler(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const err: unknown = error;
  // The route's zod serializer only knows the success shape.
  reply.serializer(json);
  if (err instanceof AppError) {
    if (err.extra?.retryAfter) reply.header('Retry-After', String(err.extra.retryAfter));
    return reply.status(200).send({ code: err.code, error: err.detail, ...err.extra });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'input';
      fields[path] ??= issue.message ?? 'is invalid';
    }
    return reply.status(200).send({ code: Code.Invalid, error: fields });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.status(status).send({ code: status, error: error.message });
  }
  req.log.error({ err: error }, 'unhandled error');
  return reply.status(200).send({ code: Code.Internal, error: 'system error, please try again later' });
}
