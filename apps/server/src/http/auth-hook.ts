import type { FastifyReply, FastifyRequest } from 'fastify';
import { notLoggedIn, unauthorized } from '../errors.js';
import type { AuthService } from '../features/auth/auth.service.js';

/** The token from `Authorization: Bearer` or the `t` query parameter (spec §7, DESIGN.md). */
export function tokenOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  const t = (req.query as Record<string, unknown> | undefined)?.t;
  return typeof t === 'string' && t.length > 0 ? t : null;
}

export function authHook(auth: AuthService) {
  return async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    req.auth = null;
    // Only API routes need a session. Unknown routes, and the static files of the
    // web client, are a transport matter (HTTP 404, API.md) whoever asks.
    if (req.is404 || req.routeOptions.config?.public || !req.routeOptions.url?.startsWith('/h5/')) return;
    const token = tokenOf(req);
    if (!token) throw notLoggedIn();
    const ctx = token ? await auth.authenticate(token) : null;
    if (!ctx) throw unauthorized();
    req.auth = ctx;
  };
}
