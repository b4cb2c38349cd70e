import type {
  Account, Changed, ComposeData, ComposeLimits, ComposeMode, LoginResult, Mail, MailList, MboxIndex,
  QuickFilter, RecallResult, SavedDraft, SendResult, SessionResult, Suggestions, TagList, UploadResult, Version,
} from '@mailwing/shared';
import { PAGE_SIZE_DEFAULT } from '@mailwing/shared';
import { getLanguage } from '../i18n';
import { session } from '../state/session';
import { apiUrl, request, upload, type Params } from './request';

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
  // view=auto: conversation rows when the mailbox's setting is on (issue 14), decided by the server.
  mailList: (mid: string, page: number, size = PAGE_SIZE_DEFAULT, filters: ListFilters = {}) =>
    request<MailList>('/mail/list', { data: { mid, page, size, filter: filters.filter, tag: filters.tag, view: 'auto' }, loading: false }),
  /** A background reload (live update): no spinner, and a failure is only logged. */
  mailListQuiet: (mid: string, page: number, size: number, filters: ListFilters = {}) =>
    request<MailList>('/mail/list', { data: { mid, page, size, filter: filters.filter, tag: filters.tag, view: 'auto' }, loading: false, quiet: true }),
  /** A conversation action (conv/read, star, move, delete, junk, purge) on conversation ids. */
  conv: (op: string, list: readonly string[], data: Params = {}) => post<Changed>(`/conv/${op}`, { ids: ids(list), ...data }),
  // Spec §7: read/index carries the XMLHttpRequest marker header.
  readMail: (mid: string, images = false) =>
    request<Mail>('/read/index', { data: { mid, images: images ? 1 : undefined }, headers: { 'X-Requested-With': 'XMLHttpRequest' } }),

  markRead: (list: readonly string[], read: boolean) => post<Changed>('/mailop/read', { ids: ids(list), read }),
  star: (list: readonly string[], star: boolean) => post<Changed>('/mailop/star', { ids: ids(list), star }),
  move: (list: readonly string[], to: string) => post<Changed>('/mailop/move', { ids: ids(list), to }),
  remove: (list: readonly string[]) => post<Changed>('/mailop/delete', { ids: ids(list) }),
  junk: (list: readonly string[]) => post<Changed>('/mailop/junk', { ids: ids(list) }),
  purge: (list: readonly string[]) => post<Changed>('/mailop/purge', { ids: ids(list) }),
  /** The user's tags; quiet by default, for the lists' chips and filters. */
  tags: (loading = false) => request<TagList>('/tag/list', { loading, quiet: !loading }),

  composeLimits: () => request<ComposeLimits>('/write/limits', { loading: false, quiet: true }),
  /** The quote header ("On … wrote:") comes in the UI language with dates in the device's time zone. */
  loadCompose: (mid: string, mode: ComposeMode) =>
    request<ComposeData>('/write/load', { data: { mid, mode, lang: getLanguage(), tz: -new Date().getTimezoneOffset() } }),
  /** Autocomplete: quiet, because a failed suggestion should not interrupt typing. */
  suggest: (q: string) => request<Suggestions>('/write/suggest', { data: { q }, loading: false, quiet: true }),
  uploadFile: (file: File, onProgress: (percent: number) => void, signal: AbortSignal) =>
    upload<UploadResult>('/write/upload', file, { onProgress, signal, quiet: true }),
  /** Autosave runs in the background: no spinner, and its failure is shown by the page, not a toast. */
  saveDraft: (data: ComposeForm) => request<SavedDraft>('/write/draft', { method: 'POST', data: { ...data }, loading: false, quiet: true }),
  send: (data: ComposeForm) => post<SendResult>('/write/send', { ...data }),
  recall: (mid: string) => post<RecallResult>('/write/recall', { mid }),
  cancelTimed: (mid: string) => post<SavedDraft>('/write/cancel-timed', { mid }),
};

/** The optional filters of a folder list. */
export interface ListFilters {
  filter?: QuickFilter;
  /** A tag id. */
  tag?: string;
}

/** What write/draft and write/send take, already encoded for the form body. */
export interface ComposeForm {
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  html: string;
  text: string;
  attachIds: string;
  urgent: 0 | 1;
  sendAt?: number;
  draftId?: string;
  replyTo?: string;
  forwardOf?: string;
}

/** Where an uploaded file can be read back, e.g. an inline image in the editor. */
export function uploadedFileUrl(id: string): string {
  return apiUrl('/write/file', { id });
}

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
