import type { CallbackReading, PaymentProvider, QueryAnswer, StartedPayment } from './provider.js';

// A provider for demos and tests: no money moves. The "payment page" is the top-up page
// itself, which offers a Pay button; paying posts a callback through the same crediting
// path as a real provider. It knows of no payment on its own, so a query says pending.

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly appId = null;
  readonly ack = 'success';
  readonly nack = 'failure';

  start(p: { outTradeNo: string }): StartedPayment {
    return { payUrl: `#/pages/west/recharge/index?sandbox=${encodeURIComponent(p.outTradeNo)}` };
  }

  /** The caller (the sandbox route) has already checked the session owns the payment. */
  readCallback(params: Record<string, string>): CallbackReading {
    return {
      verified: true, outTradeNo: params.out_trade_no ?? null, tradeNo: params.trade_no ?? null,
      amountCents: params.amount_cents ? Number(params.amount_cents) : null, appId: null, state: 'paid',
    };
  }

  async query(): Promise<QueryAnswer> {
    return { verified: true, raw: '{"sandbox":"pending"}', state: 'pending', tradeNo: null, amountCents: null };
  }
}
