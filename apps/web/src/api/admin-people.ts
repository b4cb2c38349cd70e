import type { AdminDepartmentList, PeopleImportResult, Person, QuotaSummary } from '@mailwing/shared';
import { request, type Params } from './request';

// Calls of the console's people, departments and quotas page (issue 17, scope 2); loaded with it.
// Quiet: the page words each refusal by its reason code, in the admin's language.

interface Paged<T> { list: T[]; total: number; page: number; size: number }
// No loading toast for a form's call: its button is disabled while it runs, and the toast would cover the answer.
const post = <T>(path: string, data: Params, loading = false) => request<T>(path, { method: 'POST', data, quiet: true, loading });

export interface PersonFields {
  name?: string; jobTitle?: string; phone?: string; departmentId?: string; quotaBytes?: number; status?: 'active' | 'disabled'; role?: 'user' | 'admin';
}

export const adminPeopleApi = {
  list: (q: { q?: string; department?: string; page?: number; size?: number }) =>
    request<Paged<Person>>('/admin/people/list', { data: { q: q.q || undefined, department: q.department, page: q.page ?? 1, size: q.size ?? 50 }, loading: false, quiet: true }),
  get: (id: string) => request<Person>('/admin/people/get', { data: { id }, loading: false, quiet: true }),
  create: (v: { email: string; name: string; password: string } & PersonFields) => post<{ id: string }>('/admin/people/create', { ...v }),
  update: (id: string, v: PersonFields) => post<Person>('/admin/people/update', { id, ...v }),
  remove: (id: string) => post<unknown>('/admin/people/delete', { id }),
  resetPassword: (id: string, password: string) => post<unknown>('/admin/people/reset-password', { id, password }),
  /** With the loading toast: 1,000 lines take a while. */
  setScope: (id: string, departments: string[]) => post<unknown>('/admin/people/scope', { id, departments: departments.join(',') }),
  importCsv: (csv: string) => post<PeopleImportResult>('/admin/people/import', { csv }, true),
  departments: () => request<AdminDepartmentList>('/admin/departments/list', { loading: false, quiet: true }),
  createDepartment: (parentId: string, name: string) => post<{ id: string }>('/admin/departments/create', { parentId, name }),
  renameDepartment: (id: string, name: string) => post<unknown>('/admin/departments/rename', { id, name }),
  moveDepartment: (id: string, parentId: string) => post<unknown>('/admin/departments/move', { id, parentId }),
  deleteDepartment: (id: string) => post<unknown>('/admin/departments/delete', { id }),
  quota: () => request<QuotaSummary>('/admin/quota/summary', { loading: false, quiet: true }),
  /** null lifts the company's limit. */
  setCompanyQuota: (bytes: number | null) => post<QuotaSummary>('/admin/quota/company', { quotaBytes: bytes === null ? '' : bytes }),
};
