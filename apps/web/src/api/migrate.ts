import type { AdminAnnouncementList, AnnouncementList, MigrateDetail, MigrateImportResult, MigrateList, MigrateTestResult } from '@mailwing/shared';
import { request } from './request';

// Mail migration and announcements in the admin console, and the user's announcements.
// Apart from endpoints.ts so these load with their pages only.

export interface MigrateServer { host: string; port: number; tls: 'tls' | 'starttls' | 'none' }

const post = <T>(path: string, data: Record<string, string | number | undefined>, quiet = false) => request<T>(path, { method: 'POST', data, quiet });

export const migrateApi = {
  /** Quiet: a refusal (migrate.auth, migrate.tls, …) is worded by the page. */
  test: (s: MigrateServer, username: string, password: string) => post<MigrateTestResult>('/admin/migrate/test', { ...s, username, password }, true),
  importCsv: (s: MigrateServer, csv: string) => post<MigrateImportResult>('/admin/migrate/import', { ...s, csv }),
  list: (loading = true) => request<MigrateList>('/admin/migrate/list', { loading, quiet: !loading }),
  detail: (id: string) => request<MigrateDetail>('/admin/migrate/detail', { data: { id }, loading: false }),
  rerun: (id?: string) => post<{ queued: number }>('/admin/migrate/rerun', { id }),
  finalise: (id?: string) => post<{ queued: number }>('/admin/migrate/finalise', { id }),
  remove: (id: string) => post<unknown>('/admin/migrate/delete', { id }),
};

export const announcementApi = {
  publish: (title: string, body: string, departments: string[]) => post<{ id: string }>('/admin/announcement/publish', { title, body, departments: departments.join(',') }),
  adminList: () => request<AdminAnnouncementList>('/admin/announcement/list'),
  remove: (id: string) => post<unknown>('/admin/announcement/delete', { id }),
  /** Quiet and without the loading toast: the inbox banner asks in the background. */
  list: (quiet = false) => request<AnnouncementList>('/announcement/list', { loading: !quiet, quiet }),
  read: (id: string) => request<unknown>('/announcement/read', { method: 'POST', data: { id }, loading: false, quiet: true }),
};
