import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { alipayTime, rsa2Sign, rsa2Verify, signContent } from '../src/features/west-pay/alipay.js';

// A loopback stand-in for Alipay's open-platform gateway, speaking its documented format:
// it checks the RSA2 signature of each request with the app's public key, answers
// alipay.trade.query with `{"alipay_trade_query_response":{…},"sign":"…"}` signed with its
// own key, and signs notifications the way Alipay does (sorted, without sign and sign_type).

export interface Trade { tradeNo: string; amount: string; status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED' }

export interface AlipayStandIn {
  url: string;
  appId: string;
  /** PEM of the app's private key (ours) and of Alipay's public key, for the server's config. */
  appPrivatePem: string;
  alipayPublicPem: string;
  trades: Map<string, Trade>;
  /** Requests whose signature did not verify. */
  badRequests: number;
  queries: number;
  /** A notification as Alipay would post it, signed (or signed with another key when `forge`). */
  notification(v: { outTradeNo: string; tradeNo: string; amount: string; status?: string; appId?: string; forge?: boolean }): Record<string, string>;
  close(): Promise<void>;
}

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

export async function startAlipayStandIn(): Promise<AlipayStandIn> {
  const app = pair();
  const alipay = pair();
  const stranger = pair();
  const appPublic: KeyObject = createPublicKey(app.publicKey.export({ type: 'spki', format: 'pem' }));
  const trades = new Map<string, Trade>();
  const appId = '2021000000000001';
  const state = { badRequests: 0, queries: 0 };

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(body));
      if (!params.sign || !rsa2Verify(signContent(params, ['sign']), params.sign, appPublic) || params.app_id !== appId) {
        state.badRequests++;
        const inner = JSON.stringify({ code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' });
        res.end(`{"error_response":${inner},"sign":"${rsa2Sign(inner, alipay.privateKey)}"}`);
        return;
      }
      if (params.method === 'alipay.trade.query') {
        state.queries++;
        const biz = JSON.parse(params.biz_content ?? '{}') as { out_trade_no?: string };
        const t = trades.get(biz.out_trade_no ?? '');
        const inner = t
          ? JSON.stringify({ code: '10000', msg: 'Success', buyer_logon_id: 'bu***@example.com', buyer_pay_amount: '0.00', out_trade_no: biz.out_trade_no, trade_no: t.tradeNo, trade_status: t.status, total_amount: t.amount })
          : JSON.stringify({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在', out_trade_no: biz.out_trade_no });
        res.setHeader('content-type', 'text/html;charset=utf-8');
        res.end(`{"alipay_trade_query_response":${inner},"sign":"${rsa2Sign(inner, alipay.privateKey)}"}`);
        return;
      }
      res.statusCode = 400;
      res.end('unknown method');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/gateway.do`,
    appId,
    appPrivatePem: app.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    alipayPublicPem: alipay.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    trades,
    get badRequests() { return state.badRequests; },
    get queries() { return state.queries; },
    notification(v) {
      const params: Record<string, string> = {
        gmt_create: alipayTime(new Date()), charset: 'utf-8', gmt_payment: alipayTime(new Date()), notify_time: alipayTime(new Date()),
        subject: 'Mailwing top-up / 账户充值', buyer_id: '2088102122524333', invoice_amount: v.amount, version: '1.0',
        notify_id: `ac05099524730693a8b330c5ecf72da${Math.floor(Math.random() * 1e6)}`, fund_bill_list: '[{"amount":"' + v.amount + '","fundChannel":"ALIPAYACCOUNT"}]',
        notify_type: 'trade_status_sync', out_trade_no: v.outTradeNo, total_amount: v.amount, trade_status: v.status ?? 'TRADE_SUCCESS',
        trade_no: v.tradeNo, auth_app_id: v.appId ?? appId, receipt_amount: v.amount, point_amount: '0.00', app_id: v.appId ?? appId,
        buyer_pay_amount: v.amount, sign_type: 'RSA2', seller_id: '2088102119685838',
      };
      params.sign = rsa2Sign(signContent(params, ['sign', 'sign_type']), (v.forge ? stranger : alipay).privateKey);
      return params;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
