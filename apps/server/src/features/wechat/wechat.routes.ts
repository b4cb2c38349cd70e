import { Empty, envelope, LoginResult, WechatAppInfo, WechatAuthorize, WechatCodeInput } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { WechatService } from './wechat.service.js';

export function wechatRoutes(app: App, wechat: WechatService): void {
  const tags = ['auth'];
  const pub = { public: true };
  // Runs after the auth hook and before validation: off means 403, whatever the input.
  const preValidation = async () => wechat.assertEnabled();

  app.get('/h5/login/wx', { config: pub, preValidation, schema: { tags, response: { 200: envelope(WechatAuthorize) } } }, async () => ok(wechat.authorize()));

  // For the native app's WeChat SDK, which runs the authorize step itself.
  app.get('/h5/login/app', { config: pub, preValidation, schema: { tags, response: { 200: envelope(WechatAppInfo) } } }, async () => ok(wechat.appInfo()));

  app.post('/h5/login/wxcode', { config: pub, preValidation, schema: { tags, body: WechatCodeInput, response: { 200: envelope(LoginResult) } } }, async (req) =>
    ok(await wechat.login(req.body, { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') })));

  // Spec §7 puts the code in the query string of this POST.
  app.post('/h5/login/app-bind', { preValidation, schema: { tags, querystring: WechatCodeInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await wechat.bind(caller(req), req.query.code);
    return ok({});
  });
}
