import { Code, defaultReason, fieldReason, schemaMessageReason, type ReasonCode } from '@mailwing/shared';
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
    return reply.status(200).send({ ...err.extra, code: err.code, error: err.detail, reason: err.reason });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    const reasons: Record<string, ReasonCode> = {};
    for (const issue of error.validation) {
      const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'input';
      fields[path] ??= issue.message ?? 'is invalid';
      reasons[path] ??= schemaMessageReason(issue.message) ?? fieldReason(issue.keyword);
    }
    return reply.status(200).send({ code: Code.Invalid, error: fields, reason: 'input.invalid', reasons });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.status(status).send({ code: status, error: error.message, reason: transportReason(error) });
  }
  req.log.error({ err: error }, 'unhandled error');
  return reply.status(200).send({ code: Code.Internal, error: 'system error, please try again later', reason: defaultReason(Code.Internal) });
}

/** Fastify's own refusals (body too large, bad content type, malformed body) by their FST_ code. */
function transportReason(error: FastifyError): ReasonCode {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) return 'request.too_large';
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.statusCode === 415) return 'request.media_type';
  if (error.statusCode === 404) return 'route.not_found';
  return 'request.malformed';
}
