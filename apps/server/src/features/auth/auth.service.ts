import { Code, type Account, type AutoLoginInput, type LoginInput, type LoginResult, type SessionResult, type VerifyChallenge } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import type { User } from '../../db/types.js';
import { AppError, unauthorized } from '../../errors.js';
import * as accounts from '../account/account.repository.js';
import { dummyHash, verifyPassword } from '../account/password.js';
import * as repo from './auth.repository.js';
import { statusOfCompany } from '../company-life/company-life.repository.js';
import { FailureLimiter } from './rate-limit.js';
import { hashToken, type SessionIssuer } from './session-issuer.js';
import type { SessionCache } from './session-cache.js';

export { hashToken };

export interface AuthContext {
  sessionId: number;
  userId: number;
  email: string;
  companyId: number;
  role: 'user' | 'admin';
  token: string;
}

const ACCOUNT_FAILURES = 5;
const IP_FAILURES = 30;
const WINDOW_SECONDS = 15 * 60;
// Refreshing last_seen on every request would turn each read into a write.
const TOUCH_EVERY_MS = 5 * 60_000;

/** Decides after a right password whether a second factor is due: a challenge replaces the token (issue 7). */
export type SecondFactor = (user: User, client: { ip: string; userAgent: string }) => Promise<VerifyChallenge | null>;

export class AuthService {
  private readonly limiter: FailureLimiter;

  /** `secondFactor` comes from the security feature, which owns tickets and codes; it is required, never optional. */
  constructor(private readonly db: Db, private readonly sessions: SessionIssuer, private readonly secondFactor: SecondFactor, private readonly kept?: SessionCache) {
    this.limiter = new FailureLimiter(db, WINDOW_SECONDS);
  }

  async login(input: LoginInput, client: { ip: string; userAgent: string }): Promise<LoginResult> {
    return this.open(await this.verifyCredentials(input, client), client);
  }

  /**
   * A first factor was proven (a password, or a WeChat account bound to the mailbox):
   * a session, or the second-verification challenge when the mailbox has one on.
   */
  async open(user: User, client: { ip: string; userAgent: string }): Promise<LoginResult> {
    const challenge = await this.secondFactor(user, client);
    if (challenge) return challenge;
    // Fail closed: a mailbox with an authenticator never gets a session from a first factor alone.
    if (user.totp_secret) throw new AppError(Code.Forbidden, 'Second verification is required but could not be started.', { reason: 'login.second_factor_required' });
    const token = await this.createSession(user.id, client);
    return { token, email: user.email };
  }

  /**
   * The password check of login, with its failure limits, and no session: login and
   * binding another mailbox (issue 7) share it, so both count against the same limits.
   */
  async verifyCredentials(input: LoginInput, client: { ip: string }): Promise<User> {
    const limits = [{ key: `login:acct:${input.email}`, max: ACCOUNT_FAILURES }, { key: `login:ip:${client.ip}`, max: IP_FAILURES }];
    const attempt = await this.limiter.reserve(limits);
    const user = await accounts.findUserByEmail(this.db, input.email);
    const ok = await verifyPassword(input.password, user?.password_hash ?? dummyHash());
    if (!user || !ok || user.status !== 'active') {
      throw new AppError(Code.Forbidden, 'Login account error: the address or password is incorrect.', { reason: 'login.bad_credentials' });
    }
    await attempt.succeeded();
    await this.limiter.clear(`login:acct:${input.email}`);
    // After the password, so the answer tells nothing to someone who does not know it.
    if ((await statusOfCompany(this.db, user.company_id)) === 'suspended') {
      throw new AppError(Code.Forbidden, 'This company\'s subscription is suspended. Its owner can renew it.', { reason: 'login.company_suspended' });
    }
    return user;
  }

  createSession(userId: number, client: { ip: string; userAgent: string }): Promise<string> {
    return this.sessions.create(userId, client);
  }

  async authenticate(token: string): Promise<AuthContext | null> {
    if (token.length < 20 || token.length > 200) return null;
    const hash = hashToken(token);
    let s = this.kept?.get(hash);
    if (!s) {
      const since = this.kept?.mark() ?? 0;
      s = await repo.findLiveSession(this.db, hash);
      if (!s) return null;
      // A kept session is not touched again until it is asked of the database: the keeping lasts far less than TOUCH_EVERY_MS.
      if (Date.now() - s.lastSeenAt.getTime() > TOUCH_EVERY_MS) await repo.touchSession(this.db, s.sessionId);
      this.kept?.keep(hash, s, since);
    }
    return { sessionId: s.sessionId, userId: s.userId, email: s.email, companyId: s.companyId, role: s.role, token };
  }

  /**
   * Password-free entry (spec §1): the page carries a token and the mailbox it is for.
   * A live session token of exactly that mailbox is accepted; anything else is code 501.
   */
  async autoLogin(input: AutoLoginInput): Promise<SessionResult> {
    const email = input.email ?? `${input.user}@${input.domain}`;
    const ctx = await this.authenticate(input.token);
    if (!ctx || ctx.email !== email) throw new AppError(Code.AutoLoginRefused, 'Auto-login refused: the link has expired or is not for this mailbox. Please log in.', { reason: 'login.auto_link_invalid' });
    return { token: input.token, email };
  }

  async logout(ctx: AuthContext): Promise<void> {
    await repo.deleteSession(this.db, ctx.sessionId);
  }

  async account(ctx: AuthContext): Promise<Account> {
    const user = await accounts.findUserById(this.db, ctx.userId);
    // The session outlived its user (deleted): to the client that is an ended session.
    if (!user) throw unauthorized();
    return {
      email: user.email, name: user.name, role: user.role, company: await accounts.companyName(this.db, user.company_id),
      language: user.language, quotaBytes: Number(user.quota_bytes), usedBytes: Number(user.used_bytes),
    };
  }
}
