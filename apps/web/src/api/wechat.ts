import type { LoginResult, WechatAuthorize } from '@mailwing/shared';
import { request } from './request';

// WeChat login and binding (spec §7). Loaded on demand, with state/wechat.ts:
// the login, start and security pages import it only when WeChat is involved.

export const wechatApi = {
  /** WeChat's authorize URL with a fresh state; 403 "cannot operate without binding WeChat" while WeChat login is off. */
  authorize: (quiet = false) => request<WechatAuthorize>('/login/wx', { loading: !quiet, quiet }),
  /** A session, or the second-verification challenge when the mailbox has it on. */
  login: (code: string, state: string) => request<LoginResult>('/login/wxcode', { method: 'POST', data: { code, state } }),
  /** Binds the WeChat account to this mailbox. Spec §7 puts the code in the query of this POST. */
  bind: (code: string) => request<unknown>(`/login/app-bind?code=${encodeURIComponent(code)}`, { method: 'POST' }),
};
