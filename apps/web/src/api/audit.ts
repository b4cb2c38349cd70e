import type { AuditLinkView, AuditRuleList, CompanyList, CompanyListImported, CompanyListTest, HeldList, HeldPreview, SentAudit } from '@mailwing/shared';
import { request, type Params } from './request';

// Typed calls of the audit and company-list pages (issue 17); loaded with those pages only.
// Calls are quiet: the pages say why a call failed in the user's language, by reason code.

const post = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data, quiet: true });

export interface RuleForm { id?: string; name: string; kind: string; params: string; auditors: string; timeoutMin: number; onTimeout: 'pass' | 'reject' }

export const auditApi = {
  rules: () => request<AuditRuleList>('/admin/audit/rules', { loading: false, quiet: true }),
  saveRule: (form: RuleForm) => post<{ id: string }>('/admin/audit/rule-save', { ...form }),
  deleteRule: (id: string) => post<unknown>('/admin/audit/rule-delete', { id }),
  held: (open: boolean, page: number) => request<HeldList>('/audit/held', { data: { open: open ? 1 : 0, page }, loading: false, quiet: true }),
  preview: (id: string) => request<HeldPreview>('/audit/preview', { data: { id }, quiet: true }),
  decide: (id: string, action: 'pass' | 'reject', reason: string) => post<{ state: string }>('/audit/decide', { id, action, reason }),
  sent: (mid: string) => request<SentAudit>('/audit/sent', { data: { mid }, loading: false, quiet: true }),
  linkView: (token: string) => request<AuditLinkView>('/audit/link', { data: { token }, quiet: true }),
  linkDecide: (token: string, reason: string) => post<{ state: string }>('/audit/link', { token, reason }),
};

export const listsApi = {
  list: () => request<CompanyList>('/admin/lists', { loading: false, quiet: true }),
  add: (kind: 'block' | 'allow', pattern: string, note: string) => post<unknown>('/admin/lists/add', { kind, pattern, note }),
  remove: (id: string) => post<unknown>('/admin/lists/delete', { id }),
  importCsv: (csv: string) => post<CompanyListImported>('/admin/lists/import', { csv }),
  test: (address: string, ip: string) => request<CompanyListTest>('/admin/lists/test', { data: { address, ip }, quiet: true }),
};
