import type { Changed, DeletedFolder, Folder, SearchResult, Tag } from '@mailwing/shared';
import { PAGE_SIZE_DEFAULT } from '@mailwing/shared';
import { request, type Params } from './request';

// Typed calls of the folder, tag, note and search pages (issue 5). Apart from
// endpoints.ts so they load with those pages, not with the first screen.

const post = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data });
const ids = (list: readonly string[]) => list.join(',');

/** setting/auto-archive: mail older than `days` moves to Mail history; 0 is off. */
export interface AutoArchive {
  days: number;
}

/** What search/mail takes besides paging. since/until are unix seconds. */
export interface SearchParams {
  q: string;
  mid?: string;
  since?: number;
  until?: number;
  attach?: boolean;
  unread?: boolean;
}

export const organiseApi = {
  archive: (list: readonly string[]) => post<Changed>('/mailop/archive', { ids: ids(list) }),
  /** An empty note removes it. */
  setNote: (mid: string, note: string) => post<unknown>('/mailop/note', { mid, note }),
  tagMail: (list: readonly string[], tag: string, on: boolean) => post<Changed>('/mailop/tag', { ids: ids(list), tag, on }),

  createFolder: (name: string, parent?: string) => request<Folder>('/mboxop/create-folder', { method: 'POST', data: { name, parent }, quiet: true }),
  renameFolder: (mid: string, name: string) => request<Folder>('/mboxop/rename-folder', { method: 'POST', data: { mid, name }, quiet: true }),
  deleteFolder: (mid: string) => post<DeletedFolder>('/mboxop/delete-folder', { mid }),

  createTag: (name: string, color: string) => request<Tag>('/tag/create', { method: 'POST', data: { name, color }, quiet: true }),
  updateTag: (id: string, change: { name?: string; color?: string }) =>
    request<Tag>('/tag/update', { method: 'POST', data: { id, ...change }, quiet: true }),
  deleteTag: (id: string) => post<unknown>('/tag/delete', { id }),

  search: (query: SearchParams, page: number, size = PAGE_SIZE_DEFAULT) =>
    request<SearchResult>('/search/mail', {
      data: {
        q: query.q, mid: query.mid, page, size, since: query.since, until: query.until,
        attach: query.attach ? 1 : undefined, unread: query.unread ? 1 : undefined,
      },
      loading: false,
    }),

  autoArchive: () => request<AutoArchive>('/setting/auto-archive', { loading: false, quiet: true }),
  setAutoArchive: (days: number) => post<AutoArchive>('/setting/auto-archive', { days }),
};
