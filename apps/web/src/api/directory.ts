import type { DepartmentTree, Member, MemberList } from '@mailwing/shared';
import { request } from './request';

// Company directory calls (issue 6): departments, members, member editing by admins (spec §6).

export interface MemberQuery {
  dept?: string;
  /** With dept: the members of its sub-departments too (a whole department). */
  deep?: boolean;
  q?: string;
  page: number;
  size: number;
}

/** What member-edit takes. email and password only for a new member. */
export interface MemberForm {
  id?: string;
  email?: string;
  password?: string;
  name: string;
  departmentId: string;
  jobTitle: string;
  phone: string;
  role: 'user' | 'admin';
}

export const directoryApi = {
  departments: (loading = false) => request<DepartmentTree>('/directory/departments', { loading }),
  members: (query: MemberQuery, loading = false) =>
    request<MemberList>('/directory/members', { data: { ...query, deep: query.deep ? 1 : undefined, q: query.q || undefined }, loading }),
  member: (id: string) => request<Member>('/directory/member', { data: { id } }),
  /**
   * The request layer toasts a refusal (403: not an admin, a demo account,
   * outside the admin's departments) in the server's words; a 422 also comes
   * back field by field for the form.
   */
  edit: (form: MemberForm) =>
    request<Member>('/directory/member-edit', { method: 'POST', data: { ...form, id: form.id || undefined, email: form.email || undefined, password: form.password || undefined } }),
};
