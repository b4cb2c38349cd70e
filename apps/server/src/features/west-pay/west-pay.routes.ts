import {
  envelope, WestLedgerPage, WestPageQuery, WestPayment, WestPaymentPage, WestProviders, WestSandboxPayInput, WestTopupInput, WestTopupStarted,
} from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { westCustomer } from '../west-account/west-guard.js';
import type { WestPayService } from './west-pay.service.js';

const west = { public: true, west: true } as const;

export async function westPayRoutes(app: App, pay: WestPayService): Promise<void> {
  const tags = ['west'];
  app.get('/h5/west/providers', { config: { public: true }, schema: { tags, response: { 200: envelope(WestProviders) } } }, async () =>
    ok({ providers: pay.providerNames() }));
  app.get('/h5/west/ledger', { config: west, schema: { tags, querystring: WestPageQuery, response: { 200: envelope(WestLedgerPage) } } }, async (req) =>
    ok(await pay.ledger(westCustomer(req).customerId, req.query.page, req.query.size)));
  app.get('/h5/west/payments', { config: west, schema: { tags, querystring: WestPageQuery, response: { 200: envelope(WestPaymentPage) } } }, async (req) =>
    ok(await pay.payments(westCustomer(req).customerId, req.query.page, req.query.size)));
  app.post('/h5/west/topup', { config: west, schema: { tags, body: WestTopupInput, response: { 200: envelope(WestTopupStarted) } } }, async (req) =>
    ok(await pay.topup(westCustomer(req).customerId, req.body)));
  if (pay.provider('sandbox')) {
    app.post('/h5/west/pay/sandbox', { config: west, schema: { tags, body: WestSandboxPayInput, response: { 200: envelope(WestPayment) } } }, async (req) =>
      ok(await pay.sandboxPay(westCustomer(req).customerId, req.body.outTradeNo)));
  }

  // Alipay's server posts its notification form-encoded; the body is kept as it came
  // (stored raw), so this route reads it as text in a scope of its own. The answer is
  // the bare text Alipay expects, not the envelope.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    scope.post('/h5/west/pay/notify/alipay', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
      const raw = typeof req.body === 'string' ? req.body : '';
      const params = Object.fromEntries(new URLSearchParams(raw));
      const r = await pay.callback('alipay', raw, params);
      return reply.type('text/plain').send(r.body);
    });
  });
}
