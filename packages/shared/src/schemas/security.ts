import { z } from 'zod';
import { VERIFY_CODE_LENGTH } from '../constants.js';
import { isSixDigitCode } from '../validators.js';
import { Email } from './auth.js';

// Issue 7, part 1: second verification, password reset, password change, devices.
// Route contract (all under /h5; "auth" = needs a session token):
//   POST login/h5            → LoginResult; with verification on: { verify, ticket, ways, backupEmail? }
//   POST login/secverify     SecVerifyInput → SessionResult          (ticket from login/h5 or login/bind)
//   POST login/sec-email-code TicketInput → CodeSent                 (code to the backup address)
//   POST login/resetway      ResetWayInput → ResetWays               (never reveals whether the account exists)
//   POST login/reset-code    ResetWayInput → CodeSent
//   POST login/verify-reset  VerifyResetInput → ResetTicket
//   POST login/resetpwd      ResetPasswordInput → Empty              (ends every session of the account)
//   auth GET  setting/security        → SecurityState
//   auth POST setting/totp-begin      PasswordInput → TotpSetup
//   auth POST setting/totp-enable     CodeInput → RecoveryCodes
//   auth POST setting/totp-disable    PasswordInput → Empty
//   auth POST setting/recovery-codes  PasswordInput → RecoveryCodes   (new set; old ones die)
//   auth POST setting/backup-email-code BackupEmailCodeInput → CodeSent (code to the new address)
//   auth POST setting/backup-email    BackupEmailInput → SecurityState  (email '' with password removes it)
//   auth POST setting/security-question SecurityQuestionInput → SecurityState
//   auth POST setting/password        ChangePasswordInput → Empty     (every other session ends)
//   auth POST setting/verify-password PasswordInput → Empty           (turning the gesture lock off)
//   auth GET  setting/devices         → Device[]
//   auth POST setting/device-logout   { id } → Empty

export const SecurityMessages = {
  codeEmpty: 'code is empty',
  codeSixDigits: 'must be six digits',
  answerEmpty: 'answer cannot be empty',
  passwordMismatch: 'password empty or repeat mismatch',
  passwordRequired: 'is required',
  passwordLength: 'must be 8 to 128 characters',
  contactPostmaster: 'contact postmaster to reset',
  recoveryFormat: 'is not a valid recovery code',
} as const;

/** Spec §5: the verification code is six digits only. */
export const SixDigitCode = z.string({ error: SecurityMessages.codeEmpty }).trim()
  .min(1, SecurityMessages.codeEmpty)
  .refine(isSixDigitCode, SecurityMessages.codeSixDigits);

export const Ticket = z.string({ error: 'is required' }).min(20, 'is not a valid ticket').max(200, 'is not a valid ticket');

export const VerifyWay = z.enum(['totp', 'email', 'recovery']);
export type VerifyWay = z.infer<typeof VerifyWay>;

/** A recovery code as shown to the user: 10 letters/digits, an optional dash in the middle. */
export const RecoveryCode = z.string().trim().toLowerCase().transform((v) => v.replace(/[\s-]/g, ''))
  .refine((v) => /^[a-z0-9]{10}$/.test(v), SecurityMessages.recoveryFormat);

export const SecVerifyInput = z.object({
  ticket: Ticket,
  way: VerifyWay.default('totp'),
  code: z.string({ error: SecurityMessages.codeEmpty }).trim().min(1, SecurityMessages.codeEmpty).max(40),
}).superRefine((v, ctx) => {
  if (v.way !== 'recovery' && !isSixDigitCode(v.code)) ctx.addIssue({ code: 'custom', path: ['code'], message: SecurityMessages.codeSixDigits });
});
export type SecVerifyInput = z.infer<typeof SecVerifyInput>;

export const VerifyChallenge = z.object({
  verify: z.literal(true),
  ticket: z.string(),
  ways: z.array(VerifyWay),
  /** The backup address, masked (a***@example.com), when the e-mail way exists. */
  backupEmail: z.string().optional(),
});
export type VerifyChallenge = z.infer<typeof VerifyChallenge>;

export const TicketInput = z.object({ ticket: Ticket });
export type TicketInput = z.infer<typeof TicketInput>;

/** A code went out; the client counts down `resendIn` seconds (spec §9: 60) before offering another. */
export const CodeSent = z.object({ sent: z.literal(true), resendIn: z.number().int(), to: z.string() });
export type CodeSent = z.infer<typeof CodeSent>;

export const ResetWayInput = z.object({ email: Email });
export type ResetWayInput = z.infer<typeof ResetWayInput>;

export const ResetWays = z.object({
  /** Empty: no way is set, the page says to contact the postmaster (spec §8). */
  ways: z.array(z.enum(['email', 'question'])),
  backupEmail: z.string().optional(),
  question: z.string().optional(),
});
export type ResetWays = z.infer<typeof ResetWays>;

export const VerifyResetInput = z.object({
  email: Email,
  way: z.enum(['email', 'question']),
  code: z.string().trim().max(40).optional(),
  answer: z.string().max(200).optional(),
}).superRefine((v, ctx) => {
  if (v.way === 'email') {
    if (!v.code) ctx.addIssue({ code: 'custom', path: ['code'], message: SecurityMessages.codeEmpty });
    else if (!isSixDigitCode(v.code)) ctx.addIssue({ code: 'custom', path: ['code'], message: SecurityMessages.codeSixDigits });
  } else if (!v.answer || !v.answer.trim()) {
    ctx.addIssue({ code: 'custom', path: ['answer'], message: SecurityMessages.answerEmpty });
  }
});
export type VerifyResetInput = z.infer<typeof VerifyResetInput>;

export const ResetTicket = z.object({ ticket: z.string() });
export type ResetTicket = z.infer<typeof ResetTicket>;

/** The password rules shared by reset and change (spec §5 plus a length we chose). */
export const NewPassword = z.string({ error: SecurityMessages.passwordRequired }).min(1, SecurityMessages.passwordRequired)
  .min(8, SecurityMessages.passwordLength).max(128, SecurityMessages.passwordLength);

export const ResetPasswordInput = z.object({
  ticket: Ticket,
  password: NewPassword,
  confirm: z.string({ error: SecurityMessages.passwordRequired }).min(1, SecurityMessages.passwordRequired),
}).refine((v) => v.password === v.confirm, { path: ['confirm'], message: SecurityMessages.passwordMismatch });
export type ResetPasswordInput = z.infer<typeof ResetPasswordInput>;

export const ChangePasswordInput = z.object({
  old: z.string({ error: SecurityMessages.passwordRequired }).min(1, SecurityMessages.passwordRequired).max(1024),
  password: NewPassword,
  confirm: z.string({ error: SecurityMessages.passwordRequired }).min(1, SecurityMessages.passwordRequired),
}).refine((v) => v.password === v.confirm, { path: ['confirm'], message: SecurityMessages.passwordMismatch });
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

export const PasswordInput = z.object({ password: z.string({ error: SecurityMessages.passwordRequired }).min(1, SecurityMessages.passwordRequired).max(1024) });
export type PasswordInput = z.infer<typeof PasswordInput>;

export const CodeInput = z.object({ code: SixDigitCode });
export type CodeInput = z.infer<typeof CodeInput>;

export const SecurityState = z.object({
  /** Second verification is on exactly when an authenticator is set up. */
  totp: z.boolean(),
  recoveryLeft: z.number().int(),
  backupEmail: z.string().nullable(),
  question: z.string().nullable(),
});
export type SecurityState = z.infer<typeof SecurityState>;

export const TotpSetup = z.object({
  /** Base32 secret, for typing in by hand. */
  secret: z.string(),
  /** otpauth://totp/… (Key Uri Format), for the QR code. */
  uri: z.string(),
  digits: z.literal(VERIFY_CODE_LENGTH),
  period: z.literal(30),
});
export type TotpSetup = z.infer<typeof TotpSetup>;

export const RecoveryCodes = z.object({ codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

export const BackupEmailCodeInput = z.object({ email: Email, password: z.string().min(1, SecurityMessages.passwordRequired).max(1024) });
export type BackupEmailCodeInput = z.infer<typeof BackupEmailCodeInput>;

export const BackupEmailInput = z.union([
  z.object({ email: Email, code: SixDigitCode }),
  z.object({ email: z.literal(''), password: z.string().min(1, SecurityMessages.passwordRequired).max(1024) }),
]);
export type BackupEmailInput = z.infer<typeof BackupEmailInput>;

export const SecurityQuestionInput = z.object({
  password: z.string({ error: SecurityMessages.passwordRequired }).min(1, SecurityMessages.passwordRequired).max(1024),
  /** An empty question removes the way. */
  question: z.string().trim().max(100),
  answer: z.string().max(200).default(''),
}).superRefine((v, ctx) => {
  if (v.question && !v.answer.trim()) ctx.addIssue({ code: 'custom', path: ['answer'], message: SecurityMessages.answerEmpty });
});
export type SecurityQuestionInput = z.infer<typeof SecurityQuestionInput>;

export const Device = z.object({
  id: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  createdAt: z.number().int(),
  lastSeenAt: z.number().int(),
  current: z.boolean(),
  /** Whether this device receives push notifications. */
  push: z.boolean(),
});
export type Device = z.infer<typeof Device>;

export const DeviceIdInput = z.object({ id: z.string().regex(/^\d{1,15}$/, 'is not a valid id') });
export type DeviceIdInput = z.infer<typeof DeviceIdInput>;

