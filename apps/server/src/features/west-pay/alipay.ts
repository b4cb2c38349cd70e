import { createPrivateKey, createPublicKey, createSign, createVerify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AlipayConfig } from '../../config.js';
import { fenToYuan, yuanToFen, type CallbackReading, type PaymentProvider, type QueryAnswer, type StartedPayment } from './provider.js';

// Alipay page payment (alipay.trade.page.pay), its asynchronous notification and the
// trade query (alipay.trade.query), to Alipay's open-platform protocol:
// - every request is signed RSA2 (SHA256withRSA) over its parameters sorted by name,
//   joined as k=v with &, empty values and `sign` left out;
// - a notification is verified the same way with Alipay's public key, `sign` and
//   `sign_type` left out, and answered with the body "success" once handled;
// - an API answer is signed over the exact JSON text of its `<method>_response` value.
// The gateway is the operator's configuration, not user input, so it is called directly.

const PAID = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/** A key as Alipay hands it out (bare base64), as PEM text, or a path to a PEM file. */
function loadKey(value: string, kind: 'private' | 'public'): KeyObject {
  let text = value.trim();
  if (!text.startsWith('-----BEGIN') && existsSync(text)) text = readFileSync(text, 'utf8').trim();
  if (text.startsWith('-----BEGIN')) return kind === 'private' ? createPrivateKey(text) : createPublicKey(text);
  const der = Buffer.from(text, 'base64');
  return kind === 'private' ? createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) : createPublicKey({ key: der, format: 'der', type: 'spki' });
}

/** The text that is signed: sorted by name, k=v joined with &, empty values dropped. */
export function signContent(params: Record<string, string>, omit: string[]): string {
  return Object.keys(params).filter((k) => !omit.includes(k) && params[k] !== undefined && params[k] !== '').sort()
    .map((k) => `${k}=${params[k]}`).join('&');
}

export const rsa2Sign = (content: string, key: KeyObject) => createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
export function rsa2Verify(content: string, signature: string, key: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(key, signature, 'base64');
  } catch {
    return false;
  }
}

/** Alipay's timestamps are Beijing time, "yyyy-MM-dd HH:mm:ss". */
export function alipayTime(d: Date): string {
  return new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The exact JSON text of `"<name>": {...}` in an answer, as it was signed (brace matching, strings respected). */
export function signedSlice(body: string, name: string): string | null {
  const at = body.indexOf(`"${name}"`);
  if (at < 0) return null;
  const start = body.indexOf('{', at + name.length + 2);
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < body.length; i++) {
    const ch = body[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return body.slice(start, i + 1);
  }
  return null;
}

export class AlipayProvider implements PaymentProvider {
  readonly name = 'alipay' as const;
  readonly ack = 'success';
  readonly nack = 'failure';
  readonly appId: string;
  private readonly privateKey: KeyObject;
  private readonly alipayKey: KeyObject;

  constructor(private readonly cfg: AlipayConfig, private readonly urls: { notifyUrl: string; returnUrl: string }, private readonly fetcher: typeof fetch = fetch) {
    this.appId = cfg.appId;
    this.privateKey = loadKey(cfg.privateKey, 'private');
    this.alipayKey = loadKey(cfg.publicKey, 'public');
  }

  private signed(method: string, biz: Record<string, string>, now: Date, extra: Record<string, string> = {}): Record<string, string> {
    const params: Record<string, string> = {
      app_id: this.cfg.appId, method, format: 'JSON', charset: 'utf-8', sign_type: 'RSA2', timestamp: alipayTime(now), version: '1.0',
      biz_content: JSON.stringify(biz), ...extra,
    };
    return { ...params, sign: rsa2Sign(signContent(params, ['sign']), this.privateKey) };
  }

  start(p: { outTradeNo: string; amountCents: number; subject: string; now: Date }): StartedPayment {
    const params = this.signed('alipay.trade.page.pay', {
      out_trade_no: p.outTradeNo, product_code: 'FAST_INSTANT_TRADE_PAY', total_amount: fenToYuan(p.amountCents), subject: p.subject,
    }, p.now, { notify_url: this.urls.notifyUrl, return_url: this.urls.returnUrl });
    return { payUrl: `${this.cfg.gateway}?${new URLSearchParams(params).toString()}` };
  }

  readCallback(params: Record<string, string>): CallbackReading {
    const verified = typeof params.sign === 'string' && rsa2Verify(signContent(params, ['sign', 'sign_type']), params.sign, this.alipayKey);
    const status = params.trade_status ?? '';
    return {
      verified,
      outTradeNo: params.out_trade_no ?? null,
      tradeNo: params.trade_no ?? null,
      amountCents: yuanToFen(params.total_amount),
      appId: params.app_id ?? null,
      state: PAID.has(status) ? 'paid' : status === 'WAIT_BUYER_PAY' ? 'pending' : status === 'TRADE_CLOSED' ? 'closed' : 'unknown',
    };
  }

  async query(outTradeNo: string, now: Date): Promise<QueryAnswer> {
    const params = this.signed('alipay.trade.query', { out_trade_no: outTradeNo }, now);
    const res = await this.fetcher(this.cfg.gateway, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' }, body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(15_000),
    });
    const raw = await res.text();
    const slice = signedSlice(raw, 'alipay_trade_query_response');
    let body: { alipay_trade_query_response?: Record<string, string>; sign?: string } = {};
    try {
      body = JSON.parse(raw) as typeof body;
    } catch { /* not JSON: unverified below */ }
    const r = body.alipay_trade_query_response ?? {};
    const verified = slice !== null && typeof body.sign === 'string' && rsa2Verify(slice, body.sign, this.alipayKey);
    const status = r.trade_status ?? '';
    const state = r.code === '10000'
      ? (PAID.has(status) ? 'paid' as const : status === 'TRADE_CLOSED' ? 'closed' as const : 'pending' as const)
      : r.sub_code === 'ACQ.TRADE_NOT_EXIST' ? 'not_found' as const : 'pending' as const;
    return { verified, raw, state, tradeNo: r.trade_no ?? null, amountCents: yuanToFen(r.total_amount) };
  }
}
