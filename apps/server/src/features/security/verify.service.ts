import { randomBytes } from 'node:crypto';
import { Code, RecoveryCode, type CodeSent, type SecVerifyInput, type SessionResult, type TicketInput, type VerifyChallenge, type VerifyWay, type ReasonCode } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../errors.js';
import { hashToken, type SessionIssuer } from '../auth/session-issuer.js';
import { FailureLimiter } from '../auth/rate-limit.js';
import type { EmailCodes } from './email-codes.js';
import { maskEmail } from './mask.js';
import { Limits, Msg, TICKET_MAX_ATTEMPTS, TICKET_TTL_SECONDS, WINDOW_SECONDS } from './policy.js';
import * as repo from './security.repository.js';
import { recoveryHash, totpStep } from './totp.js';

export interface Client { ip: string; userAgent: string }

/** What secverify hands to the bind hook once a 'bind' ticket's second factor is right. */
export interface BindVerified {
  /** The user whose session asked to bind, and that session. */
  ownerUserId: number;
  sessionId: number;
  /** The mailbox being bound, now proven by password and second factor. */
  linkedUserId: number;
  linkedEmail: string;
  /** The ip and user agent the bind was asked from. */
  client: Client;
}
export type BindHook = (bind: BindVerified) => Promise<SessionResult>;

/** The fields of a user that decide whether a password alone is enough. */
export interface FactorUser { id: number; totp_secret: string | null; backup_email: string | null }

const expired = () => new AppError(Code.NotFound, Msg.ticketExpired, { expired: true, reason: 'verify.ticket_expired' });
const spent = () => new AppError(Code.TooMany, Msg.ticketSpent, { reason: 'verify.ticket_spent' });

/**
 * Second verification after a right password (login, or binding another mailbox):
 * a ticket that stands for "password proven", then a code from the authenticator,
 * a recovery code, or a code mailed to the backup address.
 */
export class VerifyService {
  private readonly limiter: FailureLimiter;
  private bindHook: BindHook | null = null;

  constructor(private readonly db: Db, private readonly sessions: SessionIssuer, private readonly codes: EmailCodes) {
    this.limiter = new FailureLimiter(db, WINDOW_SECONDS);
  }

  /** Registers what a verified 'bind' ticket does (MailboxLinkService creates the link); its result is secverify's answer. */
  onBindVerified(fn: BindHook): void {
    this.bindHook = fn;
  }

  /**
   * The challenge for a user whose password was just proven, or null when second
   * verification is off (then the caller goes on as before). A 'bind' challenge
   * names the session that asked, so the link lands in the right account.
   */
  async challenge(user: FactorUser, purpose: 'login' | 'bind', client: Client, sessionId?: number): Promise<VerifyChallenge | null> {
    if (!user.totp_secret) return null;
    if (purpose === 'bind' && sessionId === undefined) throw new Error('a bind challenge needs the asking session');
    const ticket = randomBytes(32).toString('base64url');
    await repo.insertTicket(this.db, {
      hash: hashToken(ticket), userId: user.id, purpose, sessionId: sessionId ?? null, ip: client.ip, userAgent: client.userAgent, ttlSeconds: TICKET_TTL_SECONDS[purpose],
    });
    const ways: VerifyWay[] = ['totp', 'recovery'];
    if (user.backup_email) ways.push('email');
    return { verify: true, ticket, ways, ...(user.backup_email ? { backupEmail: maskEmail(user.backup_email) } : {}) };
  }

  async verify(input: SecVerifyInput, client: Client): Promise<SessionResult> {
    await this.limiter.check([Limits.verifyIp(client.ip)]);
    const hash = hashToken(input.ticket);
    const ticket = await this.liveTicket(hash);
    const limits = [Limits.verifyAccount(ticket.userId), Limits.verifyIp(client.ip)];
    const attempt = await this.limiter.reserve(limits);
    const wrong = await this.check(ticket.userId, input.way, input.code);
    if (wrong) {
      const attempts = await repo.countTicketFailure(this.db, hash);
      if (attempts >= TICKET_MAX_ATTEMPTS) throw spent();
      throw new AppError(Code.Forbidden, wrong.text, { reason: wrong.reason });
    }
    await attempt.succeeded();
    if (!(await repo.consumeTicket(this.db, hash, TICKET_MAX_ATTEMPTS))) throw expired();
    await this.limiter.clear(Limits.verifyAccount(ticket.userId).key);
    const from = { ip: ticket.ip, userAgent: ticket.userAgent };
    if (ticket.purpose === 'bind') {
      if (!this.bindHook) throw new Error('no bind hook is registered');
      if (ticket.sessionId === null || ticket.ownerId === null) throw expired();
      return this.bindHook({ ownerUserId: ticket.ownerId, sessionId: ticket.sessionId, linkedUserId: ticket.userId, linkedEmail: ticket.email, client: from });
    }
    return { token: await this.sessions.create(ticket.userId, from), email: ticket.email };
  }

  /** login/sec-email-code: a code to the backup address of the ticket's account. */
  async sendCode(input: TicketInput, client: Client): Promise<CodeSent> {
    const ticket = await this.liveTicket(hashToken(input.ticket));
    const user = await repo.securityRow(this.db, ticket.userId);
    if (!user?.backup_email) throw new AppError(Code.Forbidden, Msg.noBackupEmail, { reason: 'verify.no_backup_email' });
    return this.codes.send(user, 'login', user.backup_email, client.ip);
  }

  private async liveTicket(hash: string): Promise<repo.TicketRow> {
    const ticket = await repo.findTicket(this.db, hash, ['login', 'bind']);
    if (!ticket) throw expired();
    if (ticket.attempts >= TICKET_MAX_ATTEMPTS) throw spent();
    return ticket;
  }

  /** Null when the code is right; else the message saying what was wrong. */
  private async check(userId: number, way: VerifyWay, code: string): Promise<{ text: string; reason: ReasonCode } | null> {
    if (way === 'email') return (await this.codes.spend(userId, 'login', code)) ? null : { text: Msg.emailCodeWrong, reason: 'verify.email_code_wrong' };
    if (way === 'recovery') {
      const parsed = RecoveryCode.safeParse(code);
      return parsed.success && (await repo.useRecoveryCode(this.db, userId, recoveryHash(userId, parsed.data))) ? null : { text: Msg.recoveryWrong, reason: 'verify.recovery_wrong' };
    }
    const user = await repo.securityRow(this.db, userId);
    const step = user?.totp_secret ? totpStep(user.totp_secret, code) : null;
    if (step === null) return { text: Msg.totpWrong, reason: 'verify.code_wrong' };
    return (await repo.claimTotpStep(this.db, userId, step)) ? null : { text: Msg.totpReplayed, reason: 'verify.code_replayed' };
  }
}
