import { Code } from '@mailwing/shared';
import type { WechatConfig } from '../../config.js';
import { AppError, invalid } from '../../errors.js';
import type { OutboundGuard } from '../../net/guarded-fetch.js';
import { OutboundRefused } from '../../net/ssrf.js';

const TIMEOUT_MS = 5_000;
// The answer is a small JSON object.
const MAX_ANSWER_BYTES = 64 * 1024;
// Errcodes that mean the code itself is bad: invalid (40029), already used (40163), missing (41008).
const BAD_CODE = new Set([40029, 40163, 41008]);

export interface WechatIdentity { openid: string; unionid: string | null }

/**
 * WeChat's OAuth 2.0 code exchange (sns/oauth2/access_token). WeChat answers HTTP 200
 * even on failure, with {errcode, errmsg} instead of the token, and may label JSON as
 * text/plain, so the body is parsed whatever its content type. The base URL is the
 * operator's, but the call still goes through the outbound guard: a private gateway
 * has to be named in OUTBOUND_ALLOW.
 */
export async function exchangeCode(cfg: WechatConfig & { appId: string; secret: string }, code: string, guard: OutboundGuard): Promise<WechatIdentity> {
  const url = new URL(`${cfg.apiBase}/sns/oauth2/access_token`);
  url.search = new URLSearchParams({ appid: cfg.appId, secret: cfg.secret, code, grant_type: 'authorization_code' }).toString();
  let text: string;
  try {
    const res = await guard.fetch(url, { timeoutMs: TIMEOUT_MS, maxBytes: MAX_ANSWER_BYTES });
    text = res.body.toString('utf8');
    if (res.status < 200 || res.status > 299) throw new AppError(Code.Internal, `call error: WeChat answered HTTP ${res.status}`, { reason: 'wechat.call_error' });
  } catch (err) {
    if (err instanceof OutboundRefused) throw new AppError(Code.Internal, `call error: WeChat's address is refused (${err.message})`, { reason: err.reason });
    if (err instanceof AppError) throw err;
    const timeout = (err as { name?: string }).name === 'TimeoutError';
    throw new AppError(Code.Internal, timeout ? 'network timeout: WeChat did not answer, please retry' : 'network error: WeChat cannot be reached, please retry', { reason: timeout ? 'wechat.timeout' : 'wechat.unreachable' });
  }
  let body: { openid?: unknown; unionid?: unknown; errcode?: unknown; errmsg?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new AppError(Code.Internal, 'data format error: WeChat sent an unreadable answer', { reason: 'wechat.bad_answer' });
  }
  const errcode = Number(body.errcode ?? 0);
  if (errcode !== 0) {
    const what = `${typeof body.errmsg === 'string' ? body.errmsg : 'error'} (${errcode})`;
    if (BAD_CODE.has(errcode)) throw invalid('code', `WeChat refused the code: ${what}`, 'wechat.code_refused');
    throw new AppError(Code.Forbidden, `WeChat login failed: ${what}`, { reason: 'wechat.login_failed' });
  }
  if (typeof body.openid !== 'string' || !body.openid) throw new AppError(Code.Internal, 'data format error: WeChat sent no openid', { reason: 'wechat.bad_answer' });
  return { openid: body.openid, unionid: typeof body.unionid === 'string' && body.unionid ? body.unionid : null };
}
