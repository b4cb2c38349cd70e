import {
  CodeInput, Empty, envelope, WestCaptcha, WestChallenge, WestCodeSent, WestLoginInput, WestMe, WestProfileInput, WestRegisterCodeInput,
  WestRegisterInput, WestSession, WestTicketInput, WestTotpSetup, WestVerifyInput,
} from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import type { WestAccountService } from './west-account.service.js';
import type { WestCaptchaService } from './west-captcha.js';
import { westCustomer } from './west-guard.js';

const open = { public: true } as const;
const west = { public: true, west: true } as const;

export function westAccountRoutes(app: App, accounts: WestAccountService, captcha: WestCaptchaService): void {
  const tags = ['west'];
  const client = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

  app.get('/h5/west/captcha', { config: open, schema: { tags, response: { 200: envelope(WestCaptcha) } } }, async () => ok(await captcha.challenge()));
  app.post('/h5/west/register-code', { config: open, schema: { tags, body: WestRegisterCodeInput, response: { 200: envelope(WestCodeSent) } } }, async (req) =>
    ok(await accounts.registerCode(req.body, client(req))));
  app.post('/h5/west/register', { config: open, schema: { tags, body: WestRegisterInput, response: { 200: envelope(WestSession) } } }, async (req) =>
    ok(await accounts.register(req.body, client(req))));
  app.post('/h5/west/login', { config: open, schema: { tags, body: WestLoginInput, response: { 200: envelope(WestChallenge) } } }, async (req) =>
    ok(await accounts.login(req.body, client(req))));
  app.post('/h5/west/login-resend', { config: open, schema: { tags, body: WestTicketInput, response: { 200: envelope(WestCodeSent) } } }, async (req) =>
    ok(await accounts.loginResend(req.body.ticket, client(req))));
  app.post('/h5/west/login-verify', { config: open, schema: { tags, body: WestVerifyInput, response: { 200: envelope(WestSession) } } }, async (req) =>
    ok(await accounts.verify(req.body, client(req))));

  app.get('/h5/west/me', { config: west, schema: { tags, response: { 200: envelope(WestMe) } } }, async (req) => ok(await accounts.me(westCustomer(req))));
  app.post('/h5/west/profile', { config: west, schema: { tags, body: WestProfileInput, response: { 200: envelope(WestMe) } } }, async (req) =>
    ok(await accounts.saveProfile(westCustomer(req), req.body)));
  app.post('/h5/west/totp-begin', { config: west, schema: { tags, response: { 200: envelope(WestTotpSetup) } } }, async (req) =>
    ok(await accounts.totpBegin(westCustomer(req))));
  app.post('/h5/west/totp-enable', { config: west, schema: { tags, body: CodeInput, response: { 200: envelope(WestMe) } } }, async (req) =>
    ok(await accounts.totpEnable(westCustomer(req), req.body.code)));
  app.post('/h5/west/totp-disable', { config: west, schema: { tags, body: CodeInput, response: { 200: envelope(WestMe) } } }, async (req) =>
    ok(await accounts.totpDisable(westCustomer(req), req.body.code)));
  app.post('/h5/west/logout', { config: west, schema: { tags, response: { 200: envelope(Empty) } } }, async (req) => {
    await accounts.logout(westCustomer(req));
    return ok({});
  });
}
