import { Code } from '@mailwing/shared';
import type { WechatConfig } from '../../config.js';
import { AppError, invalid } from '../../errors.js';

const TIMEOUT_MS = 5_000;
// Errcodes that mean the code itself is bad: invalid (40029), already used (40163), missing (41008).
const BAD_CODE = new Set([40029, 40163, 41008]);

export interface WechatIdentity { openid: string; unionid: string | null }

/**
 * WeChat's OAuth 2.0 code exchange (sns/oauth2/access_token). WeChat answers HTTP 200
 * even on failure, with {errcode, errmsg} instead of the token, and may label JSON as
 * text/plain, so the body is parsed whatever its content type.
 */
export async function exchangeCode(cfg: WechatConfig & { appId: string; secret: string }, code: string): Promise<WechatIdentity> {
  const url = new URL(`${cfg.apiBase}/sns/oauth2/access_token`);
  url.search = new URLSearchParams({ appid: cfg.appId, secret: cfg.secret, code, grant_type: 'authorization_code' }).toString();
  let text: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    text = await res.text();
    if (!res.ok) throw new AppError(Code.Internal, `call error: WeChat answered HTTP ${res.status}`);
  } catch (err) {
    if (err instanceof AppError) throw err;
    const timeout = (err as { name?: string }).name === 'TimeoutError';
    throw new AppError(Code.Internal, timeout ? 'network timeout: WeChat did not answer, please retry' : 'network error: WeChat cannot be reached, please retry');
  }
  let body: { openid?: unknown; unionid?: unknown; errcode?: unknown; errmsg?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new AppError(Code.Internal, 'data format error: WeChat sent an unreadable answer');
  }
  const errcode = Number(body.errcode ?? 0);
  if (errcode !== 0) {
    const what = `${typeof body.errmsg === 'string' ? body.errmsg : 'error'} (${errcode})`;
    if (BAD_CODE.has(errcode)) throw invalid('code', `WeChat refused the code: ${what}`);
    throw new AppError(Code.Forbidden, `WeChat login failed: ${what}`);
  }
  if (typeof body.openid !== 'string' || !body.openid) throw new AppError(Code.Internal, 'data format error: WeChat sent no openid');
  return { openid: body.openid, unionid: typeof body.unionid === 'string' && body.unionid ? body.unionid : null };
}
