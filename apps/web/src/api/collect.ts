import type { CollectAccount, CollectList } from '@mailwing/shared';
import { request, type Params } from './request';

// Other mailboxes to collect from (POP3/IMAP). Apart from endpoints.ts so these load with the setting-pop pages only.

/** The fields of the edit form, as the server's schema takes them. */
export interface CollectForm {
  protocol: 'pop3' | 'imap';
  host: string;
  port: number;
  tls: 'tls' | 'starttls' | 'none';
  username: string;
  password: string;
  leaveCopy: boolean;
  folder: string;
  interval: number;
}

const quietPost = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data, quiet: true });

export const collectApi = {
  list: (loading = true) => request<CollectList>('/collect/list', { loading }),
  get: (id: string) => request<CollectAccount>('/collect/get', { data: { id } }),
  /** Refusals come back with a reason code (collect.auth, collect.tls, …) the page words itself. */
  test: (form: CollectForm, id?: string) => quietPost<{ ok: true; messages: number }>('/collect/test', { ...form, id }),
  create: (form: CollectForm) => quietPost<CollectAccount>('/collect/create', { ...form }),
  update: (id: string, form: CollectForm) => quietPost<CollectAccount>('/collect/update', { ...form, id }),
  remove: (id: string) => request<unknown>('/collect/delete', { method: 'POST', data: { id } }),
  resume: (id: string) => request<CollectAccount>('/collect/resume', { method: 'POST', data: { id } }),
  /** Quiet: a refusal (collect.busy) is worded by the page. */
  check: (id: string) => request<CollectAccount>('/collect/check', { method: 'POST', data: { id }, quiet: true }),
};
