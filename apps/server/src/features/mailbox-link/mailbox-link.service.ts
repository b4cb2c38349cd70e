import { Code, SettingMessages, type BoundMailbox, type LoginInput, type LoginResult, type SessionResult, type VerifyChallenge } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError, invalid, notFound, unauthorized } from '../../errors.js';
import { findUserByEmail } from '../account/account.repository.js';
import { hashToken, type AuthContext, type AuthService } from '../auth/auth.service.js';
import * as repo from './mailbox-link.repository.js';

export interface Client { ip: string; userAgent: string }

/** The second-verification step (features/security), as binding needs it. */
export interface SecondFactor {
  /** A 'bind' challenge for a user whose password was just proven, or null when verification is off for them. */
  challenge(user: { id: number; totp_secret: string | null; backup_email: string | null }, purpose: 'bind', client: Client, sessionId: number): Promise<VerifyChallenge | null>;
}

/** What the second-verification step hands back once a 'bind' ticket's code is right. */
export interface BindVerified { sessionId: number; linkedUserId: number; linkedEmail: string; client: Client }

const Msg = {
  self: 'This is the mailbox you are logged in to',
  already: 'This mailbox is already bound',
  noFactor: 'This mailbox needs second verification, which is not available',
} as const;

/**
 * Several mailboxes in one app (spec §3, §6). A login owns its links: a mailbox bound
 * from a login is listed and switched to from that login's sessions, including the
 * sessions opened for bound mailboxes (they point at the login's session), so the
 * user can switch back. Links are not symmetric: logging in to the bound mailbox
 * on its own shows nothing of the owner, since knowing one password must not open
 * the other mailbox. Ending the login ends every session opened from it.
 */
export class MailboxLinkService {
  /** Second verification is a required dependency: binding a TOTP mailbox must never skip it. */
  constructor(private readonly db: Db, private readonly auth: AuthService, private readonly secondFactor: SecondFactor) {}

  async bind(me: AuthContext, input: LoginInput, client: Client): Promise<LoginResult> {
    const root = await this.root(me);
    if (input.email === me.email) throw invalid('email', Msg.self, 'link.self');
    // The password first: nothing below may tell a stranger's address apart from a wrong password.
    const user = await this.auth.verifyCredentials(input, client);
    if (user.id === root.ownerId || user.id === me.userId) throw invalid('email', Msg.self, 'link.self');
    if (await repo.findLiveLink(this.db, root.ownerId, user.id)) throw invalid('email', Msg.already, 'link.exists');
    if (user.totp_secret) {
      const challenge = await this.secondFactor.challenge(user, 'bind', client, me.sessionId);
      if (challenge) return challenge;
      throw new AppError(Code.Forbidden, Msg.noFactor, { reason: 'bind.second_factor_required' });
    }
    return this.link({ sessionId: me.sessionId, linkedUserId: user.id, linkedEmail: user.email, client });
  }

  /** The link and a session for the bound mailbox, once its password (and second factor, when on) is proven. */
  async link(b: BindVerified): Promise<SessionResult> {
    const root = await repo.sessionRoot(this.db, b.sessionId);
    if (!root) throw unauthorized();
    if (b.linkedUserId === root.ownerId) throw invalid('email', Msg.self, 'link.self');
    await repo.upsertLink(this.db, root.ownerId, b.linkedUserId);
    return { token: await this.openSession(b.linkedUserId, root.rootId, b.client), email: b.linkedEmail };
  }

  /** The login's own mailbox and its bound ones, the current mailbox first (spec §4). */
  async select(me: AuthContext): Promise<BoundMailbox[]> {
    const root = await this.root(me);
    const [owner, linked] = await Promise.all([repo.mailboxSummary(this.db, root.ownerId), repo.linkedMailboxes(this.db, root.ownerId)]);
    const all = [...(owner ? [owner] : []), ...linked];
    if (!all.some((m) => m.id === me.userId)) {
      const own = await repo.mailboxSummary(this.db, me.userId);
      if (own) all.unshift(own);
    }
    const sorted = [...all.filter((m) => m.id === me.userId), ...all.filter((m) => m.id !== me.userId)];
    return sorted.map((m) => ({ email: m.email, name: m.email.split('@')[0] ?? m.email, nickname: m.name, unread: Number(m.unread), current: m.id === me.userId }));
  }

  /** A session for another mailbox of this login: a bound one, or the login's own when coming back. */
  async switchTo(me: AuthContext, email: string, client: Client): Promise<SessionResult> {
    if (email === me.email) return { token: me.token, email: me.email };
    const root = await this.root(me);
    const target = await findUserByEmail(this.db, email);
    if (!target || target.status !== 'active') throw notFound('Mailbox');
    // Back to the login's own mailbox: a session of its own, like a login, so that ending the
    // owner's other sessions (a password change keeps only the current one) does not end it.
    if (target.id === root.ownerId) return { token: await this.auth.createSession(target.id, client), email: target.email };
    if (!(await repo.findLiveLink(this.db, root.ownerId, target.id))) throw notFound('Mailbox');
    return { token: await this.openSession(target.id, root.rootId, client), email: target.email };
  }

  /** Removes a bound mailbox and ends the sessions this login opened for it. The login's own mailbox cannot go (spec §5). */
  async unbind(me: AuthContext, email: string): Promise<void> {
    const root = await this.root(me);
    const target = await findUserByEmail(this.db, email);
    if (email === me.email || target?.id === root.ownerId) throw invalid('email', SettingMessages.unbindCurrent, 'link.unbind_current');
    if (!target) throw notFound('Mailbox');
    const removed = await this.db.transaction().execute(async (trx) => {
      const gone = await repo.deleteLink(trx, root.ownerId, target.id);
      if (gone) await repo.deleteLinkSessions(trx, root.ownerId, target.id);
      return gone;
    });
    if (!removed) throw notFound('Mailbox');
  }

  private async root(me: AuthContext): Promise<{ rootId: number; ownerId: number }> {
    const root = await repo.sessionRoot(this.db, me.sessionId);
    if (!root) throw unauthorized();
    return root;
  }

  /** A session of the bound mailbox tied to the login's session; a failure leaves only a session whose token nobody has. */
  private async openSession(userId: number, rootId: number, client: Client): Promise<string> {
    const token = await this.auth.createSession(userId, client);
    await repo.setLinkRoot(this.db, hashToken(token), rootId);
    return token;
  }
}
