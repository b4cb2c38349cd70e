import {
  Code, type BackupEmailCodeInput, type BackupEmailInput, type ChangePasswordInput, type CodeInput, type CodeSent, type PasswordInput,
  type RecoveryCodes, type SecurityQuestionInput, type SecurityState, type TotpSetup,
} from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError, invalid, unauthorized } from '../../errors.js';
import * as accounts from '../account/account.repository.js';
import { hashPassword, verifyPassword } from '../account/password.js';
import type { AuthContext } from '../auth/auth.service.js';
import { FailureLimiter } from '../auth/rate-limit.js';
import type { EmailCodes } from './email-codes.js';
import { maskEmail } from './mask.js';
import { Limits, Msg, normaliseAnswer, WINDOW_SECONDS } from './policy.js';
import * as repo from './security.repository.js';
import { newRecoveryCode, newTotpSecret, RECOVERY_CODE_COUNT, recoveryHash, totpStep, totpUri } from './totp.js';

/** The signed-in user's own security settings: authenticator, recovery codes, backup address, question, password. */
export class SecurityService {
  private readonly limiter: FailureLimiter;

  constructor(private readonly db: Db, private readonly codes: EmailCodes) {
    this.limiter = new FailureLimiter(db, WINDOW_SECONDS);
  }

  async state(me: AuthContext): Promise<SecurityState> {
    const user = await this.user(me);
    return {
      totp: user.totp_secret !== null,
      recoveryLeft: user.totp_secret ? await repo.recoveryLeft(this.db, me.userId) : 0,
      backupEmail: user.backup_email ? maskEmail(user.backup_email) : null,
      question: user.security_question,
    };
  }

  /** A new secret waits in totp_pending until a code from it proves the app has it; the current one (if any) stays meanwhile. */
  async totpBegin(me: AuthContext, input: PasswordInput): Promise<TotpSetup> {
    await this.checkPassword(me, input.password);
    const secret = newTotpSecret();
    await repo.setTotpPending(this.db, me.userId, secret);
    return { secret, uri: totpUri(secret, me.email), digits: 6, period: 30 };
  }

  async totpEnable(me: AuthContext, input: CodeInput): Promise<RecoveryCodes> {
    const attempt = await this.limiter.reserve([Limits.verifyAccount(me.userId)]);
    const user = await this.user(me);
    if (!user.totp_pending) throw new AppError(Code.Forbidden, Msg.totpNotStarted, { reason: 'totp.not_started' });
    const step = totpStep(user.totp_pending, input.code);
    if (step === null) throw new AppError(Code.Forbidden, Msg.totpWrong, { reason: 'totp.code_wrong' });
    await attempt.succeeded();
    return this.db.transaction().execute(async (trx) => {
      if (!(await repo.enableTotp(trx, me.userId, user.totp_pending!, step))) throw new AppError(Code.Forbidden, Msg.totpNotStarted, { reason: 'totp.not_started' });
      return this.issueRecoveryCodes(trx, me.userId);
    });
  }

  async totpDisable(me: AuthContext, input: PasswordInput): Promise<void> {
    await this.checkPassword(me, input.password);
    await this.db.transaction().execute((trx) => repo.disableTotp(trx, me.userId));
  }

  /** A new set of recovery codes; the old ones, used or not, stop working. */
  async recoveryCodes(me: AuthContext, input: PasswordInput): Promise<RecoveryCodes> {
    await this.checkPassword(me, input.password);
    if (!(await this.user(me)).totp_secret) throw new AppError(Code.Forbidden, Msg.totpOff, { reason: 'totp.off' });
    return this.db.transaction().execute((trx) => this.issueRecoveryCodes(trx, me.userId));
  }

  /** A code to the would-be backup address: the address is stored only once its owner proves they read it. */
  async backupEmailCode(me: AuthContext, input: BackupEmailCodeInput, ip: string): Promise<CodeSent> {
    await this.checkPassword(me, input.password);
    if (input.email === me.email) throw invalid('email', Msg.sameAddress, 'backup.same_address');
    const domain = input.email.split('@')[1]!;
    if (await accounts.isHostedDomain(this.db, domain) && (await accounts.resolveLocal(this.db, input.email)).length === 0) throw invalid('email', Msg.noSuchMailbox, 'send.no_such_mailbox');
    return this.codes.send({ id: me.userId, email: me.email }, 'backup', input.email, ip);
  }

  async setBackupEmail(me: AuthContext, input: BackupEmailInput): Promise<SecurityState> {
    if ('password' in input) {
      await this.checkPassword(me, input.password);
      await repo.setBackupEmail(this.db, me.userId, null);
      // Codes already mailed to the old address must not still count.
      await repo.dropCode(this.db, me.userId, 'login');
      await repo.dropCode(this.db, me.userId, 'reset');
      return this.state(me);
    }
    const attempt = await this.limiter.reserve([Limits.verifyAccount(me.userId)]);
    if (!(await this.codes.spend(me.userId, 'backup', input.code, input.email))) {
      throw new AppError(Code.Forbidden, Msg.emailCodeWrong, { reason: 'code.wrong' });
    }
    await attempt.succeeded();
    await repo.setBackupEmail(this.db, me.userId, input.email);
    return this.state(me);
  }

  async setQuestion(me: AuthContext, input: SecurityQuestionInput): Promise<SecurityState> {
    await this.checkPassword(me, input.password);
    if (!input.question) await repo.setSecurityQuestion(this.db, me.userId, null, null);
    else await repo.setSecurityQuestion(this.db, me.userId, input.question, await hashPassword(normaliseAnswer(input.answer)));
    return this.state(me);
  }

  /** Every other session of the account ends; this one stays signed in. */
  async changePassword(me: AuthContext, input: ChangePasswordInput): Promise<void> {
    await this.checkPassword(me, input.old, 'password.old_wrong');
    const hash = await hashPassword(input.password);
    await this.db.transaction().execute((trx) => repo.changePassword(trx, me.userId, hash, me.sessionId));
  }

  /** Turning the client's gesture lock off asks for the password again. */
  async verifyPassword(me: AuthContext, input: PasswordInput): Promise<void> {
    await this.checkPassword(me, input.password);
  }

  /** The account password, with wrong guesses limited per account (a stolen session must not become a password oracle). */
  private async checkPassword(me: AuthContext, password: string, reason: 'password.wrong' | 'password.old_wrong' = 'password.wrong'): Promise<void> {
    const limits = [Limits.password(me.userId)];
    const attempt = await this.limiter.reserve(limits);
    const user = await this.user(me);
    if (!(await verifyPassword(password, user.password_hash))) throw new AppError(Code.Forbidden, reason === 'password.wrong' ? Msg.passwordWrong : Msg.oldPasswordWrong, { reason });
    await attempt.succeeded();
    await this.limiter.clear(limits[0]!.key);
  }

  private async issueRecoveryCodes(trx: Db, userId: number): Promise<RecoveryCodes> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await repo.replaceRecoveryCodes(trx, userId, codes.map((c) => recoveryHash(userId, c.replace('-', ''))));
    return { codes };
  }

  private async user(me: AuthContext): Promise<repo.SecurityRow> {
    const user = await repo.securityRow(this.db, me.userId);
    if (!user) throw unauthorized();
    return user;
  }
}
