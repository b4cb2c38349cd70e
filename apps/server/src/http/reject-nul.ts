import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { Code } from '@mailwing/shared';

/** The first field holding a NUL byte, as a dotted path, or null. */
function nulPath(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'input' : null;
  if (depth > 8 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const found = nulPath(v, path ? `${path}.${k}` : k, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold a NUL byte, so one in any field used to end as a 500
 * from the database (issue 12, finding 9). No field of ours has a use for it, so
 * every query and body is refused with a 422 naming the field, before any schema or
 * service sees it. One hook rather than a rule in each schema: no route can forget it.
 */
export async function rejectNulBytes(req: FastifyRequest): Promise<void> {
  const field = nulPath(req.query, '') ?? nulPath(req.body, '');
  if (field) {
    throw new AppError(Code.Invalid, { [field]: 'must not contain NUL bytes' }, { reason: 'input.invalid', reasons: { [field]: 'input.nul_byte' } });
  }
}
