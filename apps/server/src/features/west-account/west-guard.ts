import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.js';
import { tokenOf } from '../../http/auth-hook.js';
import type { App } from '../../http/types.js';
import type { WestAccountService, WestCaller } from './west-account.service.js';

// The gate of the customer realm. West routes say `config: { public: true, west: true }`:
// public keeps the mailbox hook out (a customer has no mailbox session), and this hook
// then requires a west session, carried like the mailbox token (`t` or Bearer) but
// looked up only among west sessions. A route that says west: 'optional' gets the
// caller when there is one.

declare module 'fastify' {
  interface FastifyRequest {
    westCaller: WestCaller | null;
  }
  interface FastifyContextConfig {
    west?: boolean | 'optional';
  }
}

export function installWestGuard(app: App, accounts: WestAccountService): void {
  app.decorateRequest('westCaller', null);
  app.addHook('preValidation', async (req: FastifyRequest, _reply: FastifyReply) => {
    const mode = req.routeOptions.config?.west;
    if (!mode || req.is404) return;
    const token = tokenOf(req);
    req.westCaller = token ? await accounts.authenticate(token) : null;
    if (!req.westCaller && mode !== 'optional') throw unauthorized();
  });
}

/** The signed-in customer of a west route: the first line of every west handler. */
export function westCustomer(req: { westCaller: WestCaller | null }): WestCaller {
  if (!req.westCaller) throw unauthorized();
  return req.westCaller;
}
