import { Code, SettingMessages, type LoginResult, type WechatAppInfo, type WechatAuthorize, type WechatCodeInput } from '@mailwing/shared';
import type { WechatConfig } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { AppError, invalid } from '../../errors.js';
import type { OutboundGuard } from '../../net/guarded-fetch.js';
import { findUserById } from '../account/account.repository.js';
import type { AuthContext, AuthService } from '../auth/auth.service.js';
import { exchangeCode } from './wechat.client.js';
import * as repo from './wechat.repository.js';
import { issueState, stateValid } from './wechat-state.js';

type Enabled = WechatConfig & { appId: string; secret: string };

const unbound = () => new AppError(Code.Forbidden, SettingMessages.wechatUnbound, { reason: 'wechat.unbound' });

/**
 * Logging in with WeChat (OAuth 2.0, snsapi_base): the browser goes to WeChat's
 * authorize page and comes back with a code; the server exchanges it for the user's
 * openid and logs in the mailbox bound to it. Off until an appid and secret are set.
 * WeChat stands in for the password only: a mailbox with second verification on
 * still asks for its code, exactly as after a password.
 */
export class WechatService {
  constructor(private readonly db: Db, private readonly cfg: WechatConfig, private readonly auth: AuthService, private readonly guard: OutboundGuard) {}

  authorize(): WechatAuthorize {
    const cfg = this.enabled();
    const state = issueState(cfg.secret);
    // WeChat checks the parameters in this order, and the fragment is required.
    const q = `appid=${encodeURIComponent(cfg.appId)}&redirect_uri=${encodeURIComponent(cfg.redirectUri)}&response_type=code&scope=snsapi_base&state=${state}`;
    return { url: `${cfg.oauthBase}/connect/oauth2/authorize?${q}#wechat_redirect`, state };
  }

  appInfo(): WechatAppInfo {
    return { appid: this.enabled().appId };
  }

  async login(input: WechatCodeInput, client: { ip: string; userAgent: string }): Promise<LoginResult> {
    const cfg = this.enabled();
    // The native app SDK's codes come without our state; a web login's state must be ours and fresh.
    if (input.state !== undefined && !stateValid(cfg.secret, input.state)) throw invalid('state', 'has expired: start the WeChat login again', 'wechat.state_expired');
    const id = await exchangeCode(cfg, input.code, this.guard);
    const userId = await repo.boundUserId(this.db, id.openid);
    const user = userId === undefined ? undefined : await findUserById(this.db, userId);
    if (!user || user.status !== 'active') throw unbound();
    return this.auth.open(user, client);
  }

  async bind(me: AuthContext, code: string): Promise<void> {
    const cfg = this.enabled();
    const id = await exchangeCode(cfg, code, this.guard);
    const owner = await repo.bind(this.db, me.userId, id.openid, id.unionid);
    if (owner !== me.userId) throw invalid('code', 'This WeChat account is bound to another mailbox', 'wechat.bound_elsewhere');
  }

  /** For a route hook: with WeChat off, no input is even looked at. */
  assertEnabled(): void {
    this.enabled();
  }

  private enabled(): Enabled {
    const { appId, secret } = this.cfg;
    if (!appId || !secret) throw unbound();
    return { ...this.cfg, appId, secret };
  }
}
