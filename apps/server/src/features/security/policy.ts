import { Code, VERIFY_RESEND_SECONDS } from '@mailwing/shared';
import { AppError } from '../../errors.js';

// Lifetimes and attempt limits of issue 7's proofs, and the words users see when one fails.

export const TICKET_TTL_SECONDS = { login: 10 * 60, bind: 10 * 60, reset: 15 * 60 } as const;
/** Wrong codes one ticket survives; after that the login (or bind) starts again. */
export const TICKET_MAX_ATTEMPTS = 5;
export const CODE_TTL_SECONDS = 10 * 60;
export const CODE_MAX_ATTEMPTS = 5;
/** Spec §9: the client counts down 60 seconds before offering another code. */
export const RESEND_SECONDS = VERIFY_RESEND_SECONDS;
export const WINDOW_SECONDS = 15 * 60;

/** FailureLimiter keys and their maxima per WINDOW_SECONDS. */
export const Limits = {
  /** Wrong second-factor codes (login, bind, turning the authenticator on, confirming a backup address). */
  verifyAccount: (userId: number) => ({ key: `verify:acct:${userId}`, max: 10 }),
  verifyIp: (ip: string) => ({ key: `verify:ip:${ip}`, max: 30 }),
  /** Wrong passwords typed by a signed-in user (settings that need the password, the gesture lock). */
  password: (userId: number) => ({ key: `pwd:user:${userId}`, max: 5 }),
  /** Codes mailed from one address, whatever for: each send counts. */
  codeIp: (ip: string) => ({ key: `code:ip:${ip}`, max: 20 }),
  /** Forgotten password: lookups and wrong proofs, per address asked about and per client address. */
  resetWayAddress: (email: string) => ({ key: `resetway:addr:${email}`, max: 10 }),
  resetWayIp: (ip: string) => ({ key: `resetway:ip:${ip}`, max: 30 }),
  resetVerifyAddress: (email: string) => ({ key: `reset-verify:addr:${email}`, max: 5 }),
  resetVerifyIp: (ip: string) => ({ key: `reset-verify:ip:${ip}`, max: 30 }),
  /** A limiter of RESEND_SECONDS' window: one reset code per address per minute, decoys included. */
  resetResend: (email: string) => ({ key: `reset-code:addr:${email}`, max: 1 }),
};

export const Msg = {
  ticketExpired: 'The verification has expired. Please log in again.',
  ticketSpent: 'Too many wrong codes. Please log in again.',
  totpWrong: 'The verification code is incorrect.',
  totpReplayed: 'This code has already been used. Wait for the next code from your authenticator.',
  recoveryWrong: 'The recovery code is incorrect or has already been used.',
  emailCodeWrong: 'The verification code is incorrect or has expired.',
  answerWrong: 'The answer is incorrect.',
  passwordWrong: 'The password is incorrect.',
  oldPasswordWrong: 'The old password is incorrect.',
  noBackupEmail: 'No backup address is set for this account.',
  resetExpired: 'The password reset has expired. Please start again.',
  domainError: 'mail domain error',
  totpNotStarted: 'Start setting up the authenticator first.',
  totpOff: 'Two-step verification is off.',
  sameAddress: 'must be another address than this mailbox',
  noSuchMailbox: 'no such mailbox',
  deviceNotFound: 'Device not found',
} as const;

export const tooSoon = (wait: number) =>
  new AppError(Code.TooMany, `A code was sent less than a minute ago. Try again in ${wait} seconds.`, { retryAfter: wait, reason: 'code.too_soon' });

/** Lower-cased, without any spaces: "  Beijing  No.4 " and "beijingno.4" are the same answer. */
export const normaliseAnswer = (answer: string) => answer.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
