import { z } from 'zod';
import { isChinese, isMobile, lengthBetween } from '../validators.js';
import { Email } from './auth.js';
import { flag, page, Paged, size } from './common.js';
import { NewPassword, SixDigitCode } from './security.js';

// The west storefront (issue 19): a customer realm of its own, under /h5/west/*, with
// its own session token. Amounts are whole fen (integers) everywhere.
//   GET  west/captcha                → WestCaptcha (altcha proof-of-work challenge)
//   POST west/register-code          WestRegisterCodeInput → WestCodeSent (same answer for every address)
//   POST west/register               WestRegisterInput → WestSession
//   POST west/login                  WestLoginInput → WestChallenge (always a second verification)
//   POST west/login-resend           WestTicketInput → WestCodeSent
//   POST west/login-verify           WestVerifyInput → WestSession
//   west GET  west/me                → WestMe
//   west POST west/profile           WestProfileInput → WestMe
//   west POST west/totp-begin        → WestTotpSetup; west POST west/totp-enable CodeInput → WestMe
//   west POST west/logout            → Empty

export const WEST_MONEY_MAX_CENTS = 100_000_000; // ¥1,000,000 at once

export const WestCaptcha = z.object({
  algorithm: z.string(), challenge: z.string(), maxnumber: z.number().int().optional(), salt: z.string(), signature: z.string(),
});
export type WestCaptcha = z.infer<typeof WestCaptcha>;

/** The base64 JSON of an altcha solution { algorithm, challenge, number, salt, signature }. */
const CaptchaSolution = z.string({ error: 'CAPTCHA is required' }).min(1, 'CAPTCHA is required').max(2000);

export const WestRegisterCodeInput = z.object({ email: Email, captcha: CaptchaSolution });
export type WestRegisterCodeInput = z.infer<typeof WestRegisterCodeInput>;

export const WestCodeSent = z.object({ sent: z.literal(true), resendIn: z.number().int() });
export type WestCodeSent = z.infer<typeof WestCodeSent>;

/** Refinement messages, each with its own reason code (schema-reasons.ts). */
export const WestMessages = {
  mobile: 'is not a valid mobile number',
  agreement: 'the user agreement must be accepted',
  city: 'must be 2 to 15 characters',
  nameZh: 'must be 1 to 10 Chinese characters',
  nameEn: 'must be 2 to 30 letters and spaces',
} as const;

const Mobile = z.string().trim().refine((v) => v === '' || isMobile(v), WestMessages.mobile);

export const WestRegisterInput = z.object({
  email: Email,
  mobile: Mobile.optional(),
  password: NewPassword,
  code: SixDigitCode,
  agree: flag.refine((v) => v, WestMessages.agreement),
});
export type WestRegisterInput = z.infer<typeof WestRegisterInput>;

export const WestLoginInput = z.object({ email: Email, password: z.string({ error: 'is required' }).min(1, 'is required').max(1024) });
export type WestLoginInput = z.infer<typeof WestLoginInput>;

export const WestChallenge = z.object({ verify: z.literal(true), ticket: z.string(), way: z.enum(['email', 'totp']), to: z.string().optional() });
export type WestChallenge = z.infer<typeof WestChallenge>;

export const WestTicketInput = z.object({ ticket: z.string({ error: 'is required' }).min(10).max(100) });
export const WestVerifyInput = z.object({ ticket: z.string({ error: 'is required' }).min(10).max(100), code: SixDigitCode });
export type WestVerifyInput = z.infer<typeof WestVerifyInput>;

export const WestSession = z.object({ token: z.string(), email: z.string() });
export type WestSession = z.infer<typeof WestSession>;

/** Spec §5: Chinese names 1–10 characters, English names 2–30 letters and spaces; city; zip. */
export const WestProfileInput = z.object({
  nameKind: z.enum(['zh', 'en']),
  firstName: z.string().trim(),
  lastName: z.string().trim(),
  city: z.string().trim().refine((v) => lengthBetween(v, 2, 15), WestMessages.city),
  zip: z.string().trim().regex(/^\d{6}$/, 'is not a valid zip code'),
}).superRefine((v, ctx) => {
  for (const f of ['firstName', 'lastName'] as const) {
    const ok = v.nameKind === 'zh'
      ? isChinese(v[f]) && lengthBetween(v[f], 1, 10)
      : /^[A-Za-z ]{2,30}$/.test(v[f]) && v[f].trim().length >= 2;
    if (!ok) ctx.addIssue({ code: 'custom', path: [f], message: v.nameKind === 'zh' ? WestMessages.nameZh : WestMessages.nameEn });
  }
});
export type WestProfileInput = z.infer<typeof WestProfileInput>;

export const WestMe = z.object({
  id: z.string(), email: z.string(), mobile: z.string(), balanceCents: z.number().int(), totp: z.boolean(),
  profile: z.record(z.string(), z.string()),
});
export type WestMe = z.infer<typeof WestMe>;

export const WestTotpSetup = z.object({ secret: z.string(), uri: z.string() });
export type WestTotpSetup = z.infer<typeof WestTotpSetup>;

// ---- money ----
//   west GET  west/ledger            WestPageQuery → Paged<WestLedgerEntry>
//   west GET  west/payments          WestPageQuery → Paged<WestPayment>
//   west POST west/topup             WestTopupInput → WestTopupStarted
//   POST west/pay/notify/alipay      (Alipay's server, form) → text "success" | "failure"
//   POST west/pay/sandbox            WestSandboxPayInput → WestPayment (only with the sandbox on)

export const WestPageQuery = z.object({ page, size });
export const WestLedgerEntry = z.object({ id: z.string(), amountCents: z.number().int(), kind: z.string(), ref: z.string(), balanceAfter: z.number().int(), time: z.number().int() });
export const WestLedgerPage = Paged(WestLedgerEntry);
export type WestLedgerEntry = z.infer<typeof WestLedgerEntry>;

export const WestPayment = z.object({
  id: z.string(), provider: z.string(), outTradeNo: z.string(), amountCents: z.number().int(), status: z.enum(['pending', 'paid', 'closed']), time: z.number().int(),
});
export type WestPayment = z.infer<typeof WestPayment>;
export const WestPaymentPage = Paged(WestPayment);

export const WestProviders = z.object({ providers: z.array(z.enum(['sandbox', 'alipay'])) });

export const WestTopupInput = z.object({
  provider: z.enum(['sandbox', 'alipay']),
  amountCents: z.coerce.number({ error: 'must be a number' }).int('must be whole fen').min(100, 'at least ¥1').max(WEST_MONEY_MAX_CENTS, 'too large'),
});
export type WestTopupInput = z.infer<typeof WestTopupInput>;
export const WestTopupStarted = z.object({ outTradeNo: z.string(), payUrl: z.string() });
export type WestTopupStarted = z.infer<typeof WestTopupStarted>;
export const WestSandboxPayInput = z.object({ outTradeNo: z.string().min(1).max(64) });

// ---- plans and orders ----
//   GET  west/plans                   → { list: WestPlan[] } (public: shown before login)
//   west POST west/quote              WestBuyQuoteInput → WestQuote
//   west POST west/buy                WestBuyInput → WestOrder
//   west POST west/renew              WestRenewInput → WestOrder
//   west POST west/add-seats          WestAddSeatsInput → WestOrder
//   west GET  west/orders             WestPageQuery → Paged<WestOrder>
//   west GET  west/companies          → { list: WestCompany[] }

export const WestPlan = z.object({
  id: z.string(), code: z.string(), nameZh: z.string(), nameEn: z.string(), seatYearCents: z.number().int(), minSeats: z.number().int(), maxSeats: z.number().int(), quotaMb: z.number().int(),
});
export type WestPlan = z.infer<typeof WestPlan>;
export const WestPlanList = z.object({ list: z.array(WestPlan) });

const DomainName = z.string({ error: 'is required' }).trim().toLowerCase()
  .regex(/^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'is not a valid domain');
const Years = z.coerce.number({ error: 'must be a number' }).int().min(1, 'at least 1').max(10, 'at most 10');
const Seats = z.coerce.number({ error: 'must be a number' }).int().min(1, 'at least 1').max(100_000);
const Id = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid id');

export const WestBuyQuoteInput = z.object({ planId: Id, seats: Seats, years: Years });
export type WestBuyQuoteInput = z.infer<typeof WestBuyQuoteInput>;
export const WestQuote = z.object({ priceCents: z.number().int(), seatYearCents: z.number().int(), seats: z.number().int(), years: z.number().int() });
export type WestQuote = z.infer<typeof WestQuote>;

export const WestBuyInput = WestBuyQuoteInput.extend({
  domain: DomainName,
  companyName: z.string().trim().min(1, 'is required').max(100),
  adminUser: z.string({ error: 'is required' }).trim().toLowerCase().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'is not a valid mailbox name'),
  adminPassword: NewPassword,
  /** The price the customer saw; refused if it changed meanwhile. */
  priceCents: z.coerce.number().int().min(0),
});
export type WestBuyInput = z.infer<typeof WestBuyInput>;

export const WestRenewInput = z.object({ companyId: Id, years: Years, priceCents: z.coerce.number().int().min(0) });
export type WestRenewInput = z.infer<typeof WestRenewInput>;
export const WestAddSeatsInput = z.object({ companyId: Id, seats: Seats, priceCents: z.coerce.number().int().min(0) });
export type WestAddSeatsInput = z.infer<typeof WestAddSeatsInput>;

export const WestOrder = z.object({
  id: z.string(), kind: z.enum(['buy', 'renew', 'seats']), planId: z.string(), companyId: z.string().nullable(), domain: z.string(),
  seats: z.number().int(), years: z.number().int(), priceCents: z.number().int(), time: z.number().int(),
  /** Provisioning of a purchase: pending, done or failed (failed stays visible with its error). */
  provision: z.string(), provisionError: z.string(),
});
export type WestOrder = z.infer<typeof WestOrder>;
export const WestOrderPage = Paged(WestOrder);

export const WestCompany = z.object({
  id: z.string(), name: z.string(), domain: z.string(), plan: z.string(), seats: z.number().int(), usedSeats: z.number().int(),
  expiresAt: z.number().int().nullable(), status: z.string(),
});
export type WestCompany = z.infer<typeof WestCompany>;
export const WestCompanyList = z.object({ list: z.array(WestCompany) });
