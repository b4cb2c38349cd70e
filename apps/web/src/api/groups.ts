import type { AdminDepartmentList, AliasList, MailGroup, MailGroupList, PeopleList, SendPolicy } from '@mailwing/shared';
import { request, type Params } from './request';

// Calls of the console's aliases and mail-group pages, and the people and department
// pickers the audit-rule form shares (issue 17); loaded with those pages only.
// Quiet: the pages word each refusal by its reason code.

const post = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data, quiet: true });

export interface GroupForm { id: string; name?: string; sendPolicy?: SendPolicy; users?: string[]; departments?: string[]; outside?: string[]; senders?: string[] }

export const groupsApi = {
  aliases: () => request<AliasList>('/admin/aliases/list', { loading: false, quiet: true }),
  createAlias: (address: string, userId: string) => post<{ id: string }>('/admin/aliases/create', { address, userId }),
  deleteAlias: (id: string) => post<unknown>('/admin/aliases/delete', { id }),
  groups: () => request<MailGroupList>('/admin/groups/list', { loading: false, quiet: true }),
  createGroup: (address: string, name: string, sendPolicy: SendPolicy) => post<MailGroup>('/admin/groups/create', { address, name, sendPolicy }),
  // Lists go comma-joined; an empty string clears a list (the schema splits and drops blanks).
  updateGroup: (f: GroupForm) => post<MailGroup>('/admin/groups/update', {
    id: f.id, name: f.name, sendPolicy: f.sendPolicy,
    users: f.users?.join(','), departments: f.departments?.join(','), outside: f.outside?.join(','), senders: f.senders?.join(','),
  }),
  deleteGroup: (id: string) => post<unknown>('/admin/groups/delete', { id }),
};

export const pickerApi = {
  /** People of the admin's scope whose name or address matches `q`. */
  people: (q: string, page = 1, size = 20) => request<PeopleList>('/admin/people/list', { data: { q: q || undefined, page, size }, loading: false, quiet: true }),
  departments: () => request<AdminDepartmentList>('/admin/departments/list', { loading: false, quiet: true }),
};
