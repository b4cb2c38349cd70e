import type { Account, Changed, LoginResult, Mail, MailList, MboxIndex, SessionResult, Version } from '@mailwing/shared';
import { PAGE_SIZE_DEFAULT } from '@mailwing/shared';
import { session } from '../state/session';
import { apiUrl, request, type Params } from './request';

// Typed calls. Result types come from the shared zod schemas; the client trusts
// the server's envelope rather than shipping zod to the phone.

const post = <T>(path: string, data: Params, loading = true) => request<T>(path, { method: 'POST', data, loading });
const ids = (list: readonly string[]) => list.join(',');

export const api = {
  login: (email: string, password: string) => post<LoginResult>('/login/h5', { email, password }),
  autoLogin: (data: { token: string; email?: string; domain?: string; user?: string }) =>
    post<SessionResult>('/login/h5-auto-login', data),
  check: () => request<Account>('/login/check', { loading: false }),
  logout: () => post<unknown>('/login/logout', {}),
  version: () => request<Version>('/uniapp/version', { loading: false }),

  mboxIndex: (loading = true) => request<MboxIndex>('/mbox/index', { loading }),
  mailList: (mid: string, page: number, size = PAGE_SIZE_DEFAULT) =>
    request<MailList>('/mail/list', { data: { mid, page, size }, loading: false }),
  // Spec §7: read/index carries the XMLHttpRequest marker header.
  readMail: (mid: string, images = false) =>
    request<Mail>('/read/index', { data: { mid, images: images ? 1 : undefined }, headers: { 'X-Requested-With': 'XMLHttpRequest' } }),

  markRead: (list: readonly string[], read: boolean) => post<Changed>('/mailop/read', { ids: ids(list), read }),
  star: (list: readonly string[], star: boolean) => post<Changed>('/mailop/star', { ids: ids(list), star }),
  move: (list: readonly string[], to: string) => post<Changed>('/mailop/move', { ids: ids(list), to }),
  remove: (list: readonly string[]) => post<Changed>('/mailop/delete', { ids: ids(list) }),
  junk: (list: readonly string[]) => post<Changed>('/mailop/junk', { ids: ids(list) }),
  purge: (list: readonly string[]) => post<Changed>('/mailop/purge', { ids: ids(list) }),
};

/** An attachment's URL; inline=1 asks the server to show rather than download it. */
export function attachmentUrl(id: string, inline = false): string {
  return apiUrl('/attach/download', { id, inline: inline ? 1 : undefined });
}

/**
 * Reloads the folder counts and with them the inbox badge. Spec §8: a failure
 * fetching mailbox data is only logged, so this never shows an error.
 */
export async function refreshMbox(): Promise<void> {
  try {
    session.setMbox(await request<MboxIndex>('/mbox/index', { loading: false, quiet: true }));
  } catch (error) {
    console.warn('mbox refresh failed', error);
  }
}
