import type {
  CodeSent, Device, RecoveryCodes, ResetTicket, ResetWays, SecurityState, SessionResult, TotpSetup, VerifyWay,
} from '@mailwing/shared';
import { request, type Params } from './request';

// Typed calls of the account-security pages (issue 7): second verification,
// password reset and change, authenticator, recovery e-mail and question,
// devices. Apart from endpoints.ts so they load with those pages only.

const post = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data });

export const securityApi = {
  // Before login: a ticket from login/h5 (or login/bind) and a second factor.
  secVerify: (ticket: string, way: VerifyWay, code: string) => post<SessionResult>('/login/secverify', { ticket, way, code }),
  secEmailCode: (ticket: string) => post<CodeSent>('/login/sec-email-code', { ticket }),
  // Forgotten password.
  resetWays: (email: string) => post<ResetWays>('/login/resetway', { email }),
  resetCode: (email: string) => post<CodeSent>('/login/reset-code', { email }),
  verifyReset: (data: { email: string; way: 'email' | 'question'; code?: string; answer?: string }) =>
    post<ResetTicket>('/login/verify-reset', data),
  resetPassword: (ticket: string, password: string, confirm: string) => post<Record<string, never>>('/login/resetpwd', { ticket, password, confirm }),

  // Logged in.
  state: () => request<SecurityState>('/setting/security', { loading: false }),
  totpBegin: (password: string) => post<TotpSetup>('/setting/totp-begin', { password }),
  totpEnable: (code: string) => post<RecoveryCodes>('/setting/totp-enable', { code }),
  totpDisable: (password: string) => post<unknown>('/setting/totp-disable', { password }),
  recoveryCodes: (password: string) => post<RecoveryCodes>('/setting/recovery-codes', { password }),
  backupEmailCode: (email: string, password: string) => post<CodeSent>('/setting/backup-email-code', { email, password }),
  setBackupEmail: (email: string, code: string) => post<SecurityState>('/setting/backup-email', { email, code }),
  removeBackupEmail: (password: string) => post<SecurityState>('/setting/backup-email', { email: '', password }),
  /** An empty question removes it. */
  setQuestion: (password: string, question: string, answer: string) =>
    post<SecurityState>('/setting/security-question', { password, question, answer }),
  changePassword: (old: string, password: string, confirm: string) => post<unknown>('/setting/password', { old, password, confirm }),
  verifyPassword: (password: string) => post<unknown>('/setting/verify-password', { password }),
  devices: (loading = true) => request<Device[]>('/setting/devices', { loading }),
  logoutDevice: (id: string) => post<unknown>('/setting/device-logout', { id }),
};
