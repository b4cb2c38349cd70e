// A payment provider as the storefront sees it: start a payment (a page to send the
// customer to), read a callback (verified or not), and ask about a payment for
// reconciliation. Amounts are whole fen.

export interface StartedPayment { payUrl: string }

export interface CallbackReading {
  /** The provider's signature (or equivalent) checked out. */
  verified: boolean;
  outTradeNo: string | null;
  tradeNo: string | null;
  amountCents: number | null;
  /** The app the callback is for (Alipay's app_id); null when the provider has none. */
  appId: string | null;
  /** paid: money received; pending: not yet; closed: will never be paid. */
  state: 'paid' | 'pending' | 'closed' | 'unknown';
}

export interface QueryAnswer {
  verified: boolean;
  /** The provider's answer as it came, stored with the callbacks. */
  raw: string;
  state: 'paid' | 'pending' | 'closed' | 'not_found';
  tradeNo: string | null;
  amountCents: number | null;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'alipay';
  /** The app id callbacks must carry; null when the provider has none. */
  readonly appId: string | null;
  start(p: { outTradeNo: string; amountCents: number; subject: string; now: Date }): StartedPayment;
  readCallback(params: Record<string, string>): CallbackReading;
  /** The text the provider expects back once a callback is handled (Alipay: "success"). */
  readonly ack: string;
  readonly nack: string;
  query(outTradeNo: string, now: Date): Promise<QueryAnswer>;
}

/** "12.34" → 1234; anything that is not a yuan amount with at most two decimals → null. */
export function yuanToFen(v: string | undefined): number | null {
  if (v === undefined || !/^(0|[1-9]\d{0,11})(\.\d{1,2})?$/.test(v)) return null;
  const [int, frac = ''] = v.split('.');
  return Number(int) * 100 + Number(frac.padEnd(2, '0'));
}

export const fenToYuan = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
