import type { Changed, ContactList, ImportResult, SavedDraft, SenderRules } from '@mailwing/shared';
import { apiUrl, request, upload, type Params } from './request';

// Address book calls (issue 6): contacts, groups, import and export, block and allow lists.

const post = <T>(path: string, data: Params, quiet = false) => request<T>(path, { method: 'POST', data, quiet });

/** What contact/save takes; groupIds go comma-separated. */
export interface ContactForm {
  id?: string;
  name: string;
  email: string;
  phone: string;
  company: string;
  jobTitle: string;
  jobNumber: string;
  groupIds: string[];
  important: boolean;
}

export type RuleKind = 'block' | 'allow';
export type ExportFormat = 'vcf' | 'csv';

export const contactsApi = {
  /** q matches name, address, pinyin, company and phone. */
  list: (q = '', group?: string, loading = false) => request<ContactList>('/contact/list', { data: { q: q || undefined, group }, loading }),
  /** Quiet: the form shows a 422 beside its fields. */
  save: (form: ContactForm) =>
    post<SavedDraft>('/contact/save', { ...form, id: form.id || undefined, groupIds: form.groupIds.join(','), important: form.important }, true),
  remove: (ids: readonly string[]) => post<Changed>('/contact/delete', { ids: ids.join(',') }),
  setImportant: (id: string, important: boolean) => post<unknown>('/contact/important', { id, important }),

  saveGroup: (name: string, id?: string) => post<SavedDraft>('/contact/group-save', { id, name }, true),
  deleteGroup: (id: string) => post<unknown>('/contact/group-delete', { id }),
  groupMembers: (id: string, change: { add?: readonly string[]; remove?: readonly string[] }) =>
    post<unknown>('/contact/group-members', { id, add: change.add?.join(','), remove: change.remove?.join(',') }),

  /** A .vcf or .csv file, with upload progress. */
  import: (file: File, onProgress: (percent: number) => void) => upload<ImportResult>('/contact/import', file, { onProgress }),
  /** A download link (the token rides in t). */
  exportUrl: (format: ExportFormat) => apiUrl('/contact/export', { format }),

  rules: () => request<SenderRules>('/contact/rules', { loading: false }),
  /** Quiet: the page shows a refused pattern under its input. */
  addRule: (kind: RuleKind, pattern: string) => post<SenderRules>('/contact/rule-add', { kind, pattern }, true),
  deleteRule: (kind: RuleKind, pattern: string) => post<SenderRules>('/contact/rule-delete', { kind, pattern }),
};
