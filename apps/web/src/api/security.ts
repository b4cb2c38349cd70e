import type {
  CodeSent, Device, RecoveryCodes, ResetTicket, ResetWays, SecurityState, SessionResult, TotpSetup, VerifyWay,
} from '@mailwing/shared';
import { request, type Params } from './request';

// Typed calls of the account-security pages (issue 7): second verification,
// password reset and change, authenticator, recovery e-mail and question,
// devices. Apart from endpoints.ts so they load with those pages only.

const post = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data });
/** For forms that show the server's refusal beside the field (a wrong code or password), not as a toast too. */
const quietPost = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data, quiet: true });

export const securityApi = {
  // Before login: a ticket from login/h5 (or login/bind) and a second factor.
  secVerify: (ticket: string, way: VerifyWay, code: string) => quietPost<SessionResult>('/login/secverify', { ticket, way, code }),
  secEmailCode: (ticket: string) => post<CodeSent>('/login/sec-email-code', { ticket }),
  // Forgotten password.
  resetWays: (email: string) => post<ResetWays>('/login/resetway', { email }),
  resetCode: (email: string) => post<CodeSent>('/login/reset-code', { email }),
  verifyReset: (data: { email: string; way: 'email' | 'question'; code?: string; answer?: string }) =>
    quietPost<ResetTicket>('/login/verify-reset', data),
  resetPassword: (ticket: string, password: string, confirm: string) => post<Record<string, never>>('/login/resetpwd', { ticket, password, confirm }),

  // Logged in.
  state: () => request<SecurityState>('/setting/security', { loading: false }),
  totpBegin: (password: string) => quietPost<TotpSetup>('/setting/totp-begin', { password }),
  totpEnable: (code: string) => quietPost<RecoveryCodes>('/setting/totp-enable', { code }),
  totpDisable: (password: string) => quietPost<unknown>('/setting/totp-disable', { password }),
  recoveryCodes: (password: string) => quietPost<RecoveryCodes>('/setting/recovery-codes', { password }),
  backupEmailCode: (email: string, password: string) => post<CodeSent>('/setting/backup-email-code', { email, password }),
  setBackupEmail: (email: string, code: string) => quietPost<SecurityState>('/setting/backup-email', { email, code }),
  removeBackupEmail: (password: string) => quietPost<SecurityState>('/setting/backup-email', { email: '', password }),
  /** An empty question removes it. */
  setQuestion: (password: string, question: string, answer: string) =>
    quietPost<SecurityState>('/setting/security-question', { password, question, answer }),
  changePassword: (old: string, password: string, confirm: string) => quietPost<unknown>('/setting/password', { old, password, confirm }),
  verifyPassword: (password: string) => quietPost<unknown>('/setting/verify-password', { password }),
  devices: (loading = true) => request<Device[]>('/setting/devices', { loading }),
  logoutDevice: (id: string) => post<unknown>('/setting/device-logout', { id }),
  /** Ends this session on the server too; quiet, because the user is leaving anyway. */
  logout: () => request<unknown>('/login/logout', { method: 'POST', loading: false, quiet: true }),
};
