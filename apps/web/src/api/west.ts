import type {
  WestCaptcha, WestChallenge, WestCodeSent, WestCompany, WestLedgerEntry, WestMe, WestOrder, WestPayment, WestPlan, WestQuote, WestSession, WestTopupStarted,
  WestTotpSetup,
} from '@mailwing/shared';
import { westSession } from '../state/west-session';
import { ApiError, request, type Params } from './request';

// The storefront's calls (issue 19): the reseller base, /h5/west, with the customer's own
// token, never the mailbox one. Quiet: the west pages say why a call failed by reason code.
// A 401 here ends the west session only.

const BASE = '/west';

async function call<T>(path: string, method: 'GET' | 'POST', data?: Params, loading = true): Promise<T> {
  try {
    return await request<T>(`${BASE}${path}`, { method, data, quiet: true, loading, token: westSession.token() });
  } catch (err) {
    if (err instanceof ApiError && err.code === 401) westSession.clear();
    throw err;
  }
}
// `quiet` reads are a page polling for background work: no loading mask flashing over it every few seconds.
const get = <T>(path: string, data?: Params, quiet = false) => call<T>(path, 'GET', data, !quiet);
const post = <T>(path: string, data?: Params) => call<T>(path, 'POST', data);

interface Paged<T> { list: T[]; total: number; page: number; size: number }

/** Solves the proof-of-work captcha in the browser (Web Crypto); the solver loads with the west pages only. */
export async function solveCaptcha(): Promise<string> {
  const c = await get<WestCaptcha>('/captcha');
  const { solveChallenge } = await import('altcha-lib/v1');
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new ApiError(422, 'captcha', {}, undefined, 'west.captcha_invalid');
  return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature }));
}

export const westApi = {
  registerCode: (email: string, captcha: string) => post<WestCodeSent>('/register-code', { email, captcha }),
  register: (v: { email: string; mobile: string; password: string; code: string }) => post<WestSession>('/register', { ...v, agree: 1 }),
  login: (email: string, password: string) => post<WestChallenge>('/login', { email, password }),
  resend: (ticket: string) => post<WestCodeSent>('/login-resend', { ticket }),
  verify: (ticket: string, code: string) => post<WestSession>('/login-verify', { ticket, code }),
  logout: () => post<unknown>('/logout'),
  me: (quiet = false) => get<WestMe>('/me', undefined, quiet),
  saveProfile: (p: { nameKind: 'zh' | 'en'; firstName: string; lastName: string; city: string; zip: string }) => post<WestMe>('/profile', p),
  ledger: (page = 1, quiet = false) => get<Paged<WestLedgerEntry>>('/ledger', { page, size: 20 }, quiet),
  payments: (page = 1) => get<Paged<WestPayment>>('/payments', { page, size: 20 }),
  providers: () => get<{ providers: ('sandbox' | 'alipay')[] }>('/providers'),
  topup: (provider: string, amountCents: number) => post<WestTopupStarted>('/topup', { provider, amountCents }),
  sandboxPay: (outTradeNo: string) => post<WestPayment>('/pay/sandbox', { outTradeNo }),
  plans: () => get<{ list: WestPlan[] }>('/plans'),
  // The price follows the steppers as they move: no spinner over the form.
  quote: (planId: string, seats: number, years: number) => call<WestQuote>('/quote', 'POST', { planId, seats, years }, false),
  buy: (v: { planId: string; seats: number; years: number; domain: string; companyName: string; adminUser: string; adminPassword: string; priceCents: number }) =>
    post<WestOrder>('/buy', v),
  orders: (page = 1, quiet = false) => get<Paged<WestOrder>>('/orders', { page, size: 20 }, quiet),
  companies: (quiet = false) => get<{ list: WestCompany[] }>('/companies', undefined, quiet),
  // The authenticator (second verification): a new secret to scan, then proven on and off with a code.
  totpBegin: () => post<WestTotpSetup>('/totp-begin'),
  totpEnable: (code: string) => post<WestMe>('/totp-enable', { code }),
  totpDisable: (code: string) => post<WestMe>('/totp-disable', { code }),
};

export { get as westGet, post as westPost };
