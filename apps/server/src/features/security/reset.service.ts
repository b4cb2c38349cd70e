import { randomBytes } from 'node:crypto';
import { Code, SecurityMessages, type CodeSent, type ResetPasswordInput, type ResetTicket, type ResetWayInput, type ResetWays, type VerifyResetInput } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import type { SystemMailer } from '../../delivery/system-mailer.js';
import { AppError, invalid } from '../../errors.js';
import * as accounts from '../account/account.repository.js';
import { dummyHash, hashPassword, verifyPassword } from '../account/password.js';
import { hashToken } from '../auth/auth.service.js';
import { FailureLimiter } from '../auth/rate-limit.js';
import { codeMail, type EmailCodes } from './email-codes.js';
import { decoyWays, maskEmail } from './mask.js';
import { Limits, Msg, normaliseAnswer, RESEND_SECONDS, TICKET_MAX_ATTEMPTS, TICKET_TTL_SECONDS, WINDOW_SECONDS } from './policy.js';
import * as repo from './security.repository.js';
import { ensureAppKey } from '../system/app-keys.repository.js';
import { newSixDigitCode } from './totp.js';

/** Who a reset is for: a real account, or the decoy that stands in for an address with none. */
type Subject =
  | { kind: 'real'; user: repo.SecurityRow }
  | { kind: 'decoy'; ways: ResetWays };

/**
 * Forgotten password (spec §2 login pages): the ways to prove ownership, the proof,
 * then a short-lived ticket that sets the new password. An address on a hosted
 * domain with no account behind it gets a decoy that answers like a real account
 * whose proofs are always wrong, so the pages cannot be used to list mailboxes.
 */
export class ResetService {
  private readonly limiter: FailureLimiter;
  private readonly resendLimiter: FailureLimiter;
  private secret: string | null = null;

  constructor(private readonly db: Db, private readonly codes: EmailCodes, private readonly mailer: SystemMailer) {
    this.limiter = new FailureLimiter(db, WINDOW_SECONDS);
    this.resendLimiter = new FailureLimiter(db, RESEND_SECONDS);
  }

  async ways(input: ResetWayInput, ip: string): Promise<ResetWays> {
    await this.limiter.take([Limits.resetWayAddress(input.email), Limits.resetWayIp(ip)]);
    const who = await this.subject(input.email);
    if (who.kind === 'decoy') return who.ways;
    return realWays(who.user);
  }

  async sendCode(input: ResetWayInput, ip: string): Promise<CodeSent> {
    await this.limiter.take([Limits.resetWayIp(ip)]);
    const who = await this.subject(input.email);
    const ways = who.kind === 'decoy' ? who.ways : realWays(who.user);
    if (!ways.ways.includes('email')) throw new AppError(Code.Forbidden, SecurityMessages.contactPostmaster, { reason: 'reset.contact_postmaster' });
    // One code a minute per address asked about, real or not: the same 429 either way.
    await this.resendLimiter.take([Limits.resetResend(input.email)]);
    if (who.kind === 'real') return this.codes.send(who.user, 'reset', who.user.backup_email!, ip, true);
    // The same work as a real send (build and sign a code mail), with nothing sent.
    await this.codes.countSend(ip);
    await this.mailer.build(codeMail({ to: input.email, account: input.email, purpose: 'reset', code: newSixDigitCode() }));
    return { sent: true, resendIn: RESEND_SECONDS, to: ways.backupEmail! };
  }

  async verify(input: VerifyResetInput, ip: string): Promise<ResetTicket> {
    const limits = [Limits.resetVerifyAddress(input.email), Limits.resetVerifyIp(ip)];
    const attempt = await this.limiter.reserve(limits);
    const who = await this.subject(input.email);
    const user = who.kind === 'real' ? who.user : null;
    let right: boolean;
    if (input.way === 'email') {
      // A decoy spends a code of user 0, which never exists: the same statements, never a match.
      const live = user?.backup_email ? user.id : 0;
      right = (await this.codes.spend(live, 'reset', input.code!)) && live !== 0;
    } else {
      const hash = user?.security_answer_hash ?? null;
      right = (await verifyPassword(normaliseAnswer(input.answer!), hash ?? dummyHash())) && hash !== null;
    }
    if (!right || !user) {
      throw new AppError(Code.Forbidden, input.way === 'email' ? Msg.emailCodeWrong : Msg.answerWrong, { reason: input.way === 'email' ? 'reset.code_wrong' : 'reset.answer_wrong' });
    }
    await attempt.succeeded();
    await this.limiter.clear(limits[0]!.key);
    const ticket = randomBytes(32).toString('base64url');
    await repo.insertTicket(this.db, { hash: hashToken(ticket), userId: user.id, purpose: 'reset', sessionId: null, ip, userAgent: '', ttlSeconds: TICKET_TTL_SECONDS.reset });
    return { ticket };
  }

  /** The new password ends every session of the account and voids its tickets, codes and the bindings into it. */
  async resetPassword(input: ResetPasswordInput): Promise<void> {
    const hash = hashToken(input.ticket);
    const ticket = await repo.findTicket(this.db, hash, ['reset']);
    if (!ticket) throw new AppError(Code.NotFound, Msg.resetExpired, { expired: true, reason: 'reset.expired' });
    const passwordHash = await hashPassword(input.password);
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.consumeTicket(trx, hash, TICKET_MAX_ATTEMPTS))) throw new AppError(Code.NotFound, Msg.resetExpired, { expired: true, reason: 'reset.expired' });
      await repo.changePassword(trx, ticket.userId, passwordHash, null);
    });
    // The owner has just proven themselves: earlier wrong passwords no longer lock the login.
    await this.limiter.clear(`login:acct:${ticket.email}`);
  }

  /** 422 "mail domain error" for a domain not hosted here (spec §8; MX records make that public anyway). */
  private async subject(email: string): Promise<Subject> {
    if (!(await accounts.isHostedDomain(this.db, email.split('@')[1]!))) throw invalid('email', Msg.domainError, 'reset.domain_error');
    const found = await accounts.findUserByEmail(this.db, email);
    const user = found?.status === 'active' ? await repo.securityRow(this.db, found.id) : undefined;
    if (user) return { kind: 'real', user };
    return { kind: 'decoy', ways: decoyWays(await this.decoySecret(), email) };
  }

  private async decoySecret(): Promise<string> {
    // Made once per installation and never changed, so caching it in memory is safe on every node.
    this.secret ??= (await ensureAppKey(this.db, 'reset-decoy', { secret: randomBytes(32).toString('base64') })).secret;
    return this.secret;
  }
}

function realWays(user: repo.SecurityRow): ResetWays {
  const ways: ResetWays['ways'] = [];
  if (user.backup_email) ways.push('email');
  if (user.security_question && user.security_answer_hash) ways.push('question');
  return {
    ways,
    ...(user.backup_email ? { backupEmail: maskEmail(user.backup_email) } : {}),
    ...(user.security_question && user.security_answer_hash ? { question: user.security_question } : {}),
  };
}
