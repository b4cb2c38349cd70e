import { Account, AutoLoginInput, Empty, envelope, LoginInput, LoginResult, SessionResult } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { AuthService } from './auth.service.js';

export function authRoutes(app: App, auth: AuthService): void {
  const tags = ['auth'];
  const client = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

  app.post('/h5/login/h5', { config: { public: true }, schema: { tags, body: LoginInput, response: { 200: envelope(LoginResult) } } }, async (req) =>
    ok(await auth.login(req.body, client(req))));

  app.post('/h5/login/h5-auto-login', { config: { public: true }, schema: { tags, body: AutoLoginInput, response: { 200: envelope(SessionResult) } } }, async (req) =>
    ok(await auth.autoLogin(req.body)));

  app.post('/h5/login/logout', { schema: { tags, response: { 200: envelope(Empty) } } }, async (req) => {
    await auth.logout(caller(req));
    return ok({});
  });

  app.get('/h5/login/check', { schema: { tags, response: { 200: envelope(Account) } } }, async (req) => ok(await auth.account(caller(req))));
}
