import { createHash, randomBytes } from 'node:crypto';
import {
  Code, type WestChallenge, type WestCodeSent, type WestLoginInput, type WestMe, type WestProfileInput, type WestRegisterCodeInput,
  type WestRegisterInput, type WestSession, type WestTotpSetup, type WestVerifyInput,
} from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import type { SystemMailer } from '../../delivery/system-mailer.js';
import { AppError, invalid } from '../../errors.js';
import { dummyHash, hashPassword, verifyPassword } from '../account/password.js';
import { FailureLimiter } from '../auth/rate-limit.js';
import { maskEmail } from '../security/mask.js';
import { newSixDigitCode, newTotpSecret, totpStep, totpUri } from '../security/totp.js';
import * as repo from './west-account.repository.js';
import type { WestCaptchaService } from './west-captcha.js';
import { westAlreadyRegisteredMail, westCodeMail } from './west-mail.js';
import { withWestTables, type WestDb } from './tables.js';

export const WEST_CODE_TTL_S = 10 * 60;
export const WEST_RESEND_S = 60;
/** Wrong tries a code (or a login ticket) survives. */
export const WEST_CODE_MAX_TRIES = 5;
const TICKET_TTL_S = 10 * 60;
const HOUR = 3600;
const WINDOW = 15 * 60;

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const codeHash = (address: string, purpose: string, code: string) => sha(`west-code:${address}:${purpose}:${code}`);
export const westTokenHash = (token: string) => sha(`west:${token}`);

export interface Client { ip: string; userAgent: string }
export interface WestCaller { customerId: number; email: string; sessionId: number }

const badCredentials = () => new AppError(Code.Invalid, { password: 'login account error' }, { reason: 'west.bad_credentials', reasons: { password: 'west.bad_credentials' } });
const codeWrong = () => invalid('code', 'The verification code is incorrect or has expired.', 'west.code_invalid');
const tooSoon = (wait: number) => new AppError(Code.TooMany, `A code was sent less than a minute ago. Try again in ${wait} seconds.`, { retryAfter: wait, reason: 'west.code_too_soon' });

export interface WestAccountDeps { db: Db; mailer: SystemMailer; captcha: WestCaptchaService; now: () => Date; sessionDays: number; mailDomain?: string }

/** Customers of the storefront: register, log in with a second factor, their profile. Not mailbox users (DESIGN.md "Realms"). */
export class WestAccountService {
  private readonly db: WestDb;
  private readonly hourly: FailureLimiter;
  private readonly failures: FailureLimiter;

  constructor(private readonly d: WestAccountDeps) {
    this.db = withWestTables(d.db);
    this.hourly = new FailureLimiter(d.db, HOUR);
    this.failures = new FailureLimiter(d.db, WINDOW);
  }

  private async domain(): Promise<string> {
    return this.d.mailDomain ?? (await repo.firstHostedDomain(this.db)) ?? '';
  }

  /**
   * Step 1 of registering: the captcha, then a code to the address. The answer is the
   * same whether or not the address has an account; an existing owner gets a mail
   * saying so instead of a code (west-mail.ts).
   */
  async registerCode(input: WestRegisterCodeInput, client: Client): Promise<WestCodeSent> {
    await this.d.captcha.spend(input.captcha);
    await this.hourly.take([{ key: `west-code:addr:${input.email}`, max: 5 }, { key: `west-code:ip:${client.ip}`, max: 5 }]);
    const now = this.d.now();
    const code = newSixDigitCode();
    // A code row exists for taken addresses too (it matches nothing), so the 60 s resend rule answers alike.
    const exists = await repo.findCustomerByEmail(this.db, input.email);
    const wait = await repo.storeCode(this.db, {
      address: input.email, purpose: 'register', codeHash: exists ? sha(randomBytes(16).toString('hex')) : codeHash(input.email, 'register', code),
      now, ttlSeconds: WEST_CODE_TTL_S, resendSeconds: WEST_RESEND_S,
    });
    if (wait > 0) throw tooSoon(wait);
    const domain = await this.domain();
    try {
      await this.d.mailer.send(exists ? westAlreadyRegisteredMail(input.email, domain) : westCodeMail(input.email, domain, 'register', code));
    } catch (err) {
      await repo.dropCode(this.db, input.email, 'register');
      throw err;
    }
    return { sent: true, resendIn: WEST_RESEND_S };
  }

  /** Step 2: the code proves the address; the account is made and signed in. */
  async register(input: WestRegisterInput, client: Client): Promise<WestSession> {
    const attempt = await this.failures.reserve([{ key: `west-register:ip:${client.ip}`, max: 30 }]);
    const good = await repo.spendCode(this.db, { address: input.email, purpose: 'register', codeHash: codeHash(input.email, 'register', input.code), now: this.d.now(), maxAttempts: WEST_CODE_MAX_TRIES });
    if (!good) throw codeWrong();
    await attempt.succeeded();
    const id = await repo.insertCustomer(this.db, { email: input.email, mobile: input.mobile || null, passwordHash: await hashPassword(input.password), now: this.d.now() });
    // Only the owner of the address could get here with a right code; a lost race is a plain refusal.
    if (id === null) throw codeWrong();
    return { token: await this.openSession(id, client), email: input.email };
  }

  /** Password first; every customer then proves a second factor (a code by mail, or the authenticator). */
  async login(input: WestLoginInput, client: Client): Promise<WestChallenge> {
    const attempt = await this.failures.reserve([{ key: `west-login:acct:${input.email}`, max: 5 }, { key: `west-login:ip:${client.ip}`, max: 30 }]);
    const c = await repo.findCustomerByEmail(this.db, input.email);
    const good = await verifyPassword(input.password, c?.password_hash ?? dummyHash());
    if (!c || !good || c.status !== 'active') throw badCredentials();
    await attempt.succeeded();
    const ticket = randomBytes(24).toString('base64url');
    const way = c.totp_secret ? 'totp' as const : 'email' as const;
    await repo.insertTicket(this.db, { ticketHash: westTokenHash(ticket), customerId: c.id, way, expiresAt: new Date(this.d.now().getTime() + TICKET_TTL_S * 1000) });
    if (way === 'email') {
      await this.sendLoginCode(c.email, client);
      return { verify: true, ticket, way, to: maskEmail(c.email) };
    }
    return { verify: true, ticket, way };
  }

  async loginResend(ticket: string, client: Client): Promise<WestCodeSent> {
    const t = await repo.findTicket(this.db, westTokenHash(ticket), this.d.now());
    const c = t && t.way === 'email' ? await repo.findCustomer(this.db, t.customer_id) : undefined;
    if (!c) throw new AppError(Code.Invalid, { ticket: 'The verification has expired. Please log in again.' }, { reason: 'west.ticket_expired', reasons: { ticket: 'west.ticket_expired' } });
    return this.sendLoginCode(c.email, client);
  }

  private async sendLoginCode(email: string, client: Client): Promise<WestCodeSent> {
    await this.hourly.take([{ key: `west-code:addr:${email}`, max: 5 }, { key: `west-code:ip:${client.ip}`, max: 5 }]);
    const code = newSixDigitCode();
    const wait = await repo.storeCode(this.db, { address: email, purpose: 'login', codeHash: codeHash(email, 'login', code), now: this.d.now(), ttlSeconds: WEST_CODE_TTL_S, resendSeconds: WEST_RESEND_S });
    if (wait > 0) throw tooSoon(wait);
    await this.d.mailer.send(westCodeMail(email, await this.domain(), 'login', code));
    return { sent: true, resendIn: WEST_RESEND_S };
  }

  async verify(input: WestVerifyInput, client: Client): Promise<WestSession> {
    const hash = westTokenHash(input.ticket);
    const attempt = await this.failures.reserve([{ key: `west-verify:ip:${client.ip}`, max: 30 }]);
    const t = await repo.findTicket(this.db, hash, this.d.now());
    const c = t ? await repo.findCustomer(this.db, t.customer_id) : undefined;
    if (!t || !c) throw new AppError(Code.Invalid, { ticket: 'The verification has expired. Please log in again.' }, { reason: 'west.ticket_expired', reasons: { ticket: 'west.ticket_expired' } });
    let good: boolean;
    if (t.way === 'totp' && c.totp_secret) {
      const step = totpStep(c.totp_secret, input.code, this.d.now().getTime());
      good = step !== null && await repo.takeTotpStep(this.db, c.id, step);
    } else {
      good = await repo.spendCode(this.db, { address: c.email, purpose: 'login', codeHash: codeHash(c.email, 'login', input.code), now: this.d.now(), maxAttempts: WEST_CODE_MAX_TRIES });
    }
    if (!good) {
      if (await repo.countTicketMiss(this.db, hash) >= WEST_CODE_MAX_TRIES) await repo.spendTicket(this.db, hash);
      throw codeWrong();
    }
    if (!await repo.spendTicket(this.db, hash)) throw codeWrong();
    await attempt.succeeded();
    return { token: await this.openSession(c.id, client), email: c.email };
  }

  private async openSession(customerId: number, client: Client): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await repo.insertSession(this.db, {
      customerId, tokenHash: westTokenHash(token), ip: client.ip, userAgent: client.userAgent,
      expiresAt: new Date(this.d.now().getTime() + this.d.sessionDays * 86_400_000),
    });
    return token;
  }

  /** The customer behind a west token, or null. A mailbox token never matches (another table, another hash). */
  async authenticate(token: string): Promise<WestCaller | null> {
    const row = await repo.findLiveSession(this.db, westTokenHash(token), this.d.now());
    return row ? { customerId: row.customerId, email: row.email, sessionId: row.sessionId } : null;
  }

  async logout(me: WestCaller): Promise<void> {
    await repo.deleteSession(this.db, me.sessionId);
  }

  async me(me: WestCaller): Promise<WestMe> {
    const c = await repo.findCustomer(this.db, me.customerId);
    if (!c) throw new AppError(Code.Unauthorized, 'You are currently logged out. Please log in again.', { reason: 'session.expired' });
    return { id: String(c.id), email: c.email, mobile: c.mobile ?? '', balanceCents: Number(c.balance_cents), totp: c.totp_secret !== null, profile: c.profile };
  }

  async saveProfile(me: WestCaller, p: WestProfileInput): Promise<WestMe> {
    await repo.updateCustomer(this.db, me.customerId, { profile: { nameKind: p.nameKind, firstName: p.firstName, lastName: p.lastName, city: p.city, zip: p.zip } });
    return this.me(me);
  }

  async totpBegin(me: WestCaller): Promise<WestTotpSetup> {
    const secret = newTotpSecret();
    await repo.updateCustomer(this.db, me.customerId, { totp_pending: secret });
    return { secret, uri: totpUri(secret, me.email) };
  }

  async totpEnable(me: WestCaller, code: string): Promise<WestMe> {
    const c = await repo.findCustomer(this.db, me.customerId);
    const step = c?.totp_pending ? totpStep(c.totp_pending, code, this.d.now().getTime()) : null;
    if (!c?.totp_pending || step === null) throw codeWrong();
    await repo.updateCustomer(this.db, me.customerId, { totp_secret: c.totp_pending, totp_pending: null, totp_last_step: step });
    return this.me(me);
  }

  /**
   * Turns the authenticator off; logging in then asks for a mailed code again. Proven with a
   * current code of the authenticator (a stolen session alone cannot weaken the login), and the
   * step is spent as at login, so a code seen over a shoulder cannot be replayed.
   */
  async totpDisable(me: WestCaller, code: string): Promise<WestMe> {
    const attempt = await this.failures.reserve([{ key: `west-totp-off:acct:${me.customerId}`, max: 5 }]);
    const c = await repo.findCustomer(this.db, me.customerId);
    const step = c?.totp_secret ? totpStep(c.totp_secret, code, this.d.now().getTime()) : null;
    if (!c?.totp_secret || step === null || !await repo.takeTotpStep(this.db, c.id, step)) throw codeWrong();
    await attempt.succeeded();
    await repo.updateCustomer(this.db, me.customerId, { totp_secret: null, totp_pending: null });
    return this.me(me);
  }
}
