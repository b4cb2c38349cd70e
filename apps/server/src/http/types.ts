import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../features/auth/auth.service.js';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** Routes are private unless they say `public: true`. */
    public?: boolean;
  }
}

/** The signed-in caller; only for routes behind the auth hook, where it is always set. */
export function caller(req: { auth: AuthContext | null }): AuthContext {
  if (!req.auth) throw new Error('auth hook did not run');
  return req.auth;
}
