import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row types of migration 016, joined to the Database type with withTables so db/types.ts needs no edit.

type Id = Generated<number>;
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullStamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | undefined, string>;

export type JobKind = 'provision' | 'export' | 'purge';
export type JobState = 'pending' | 'done' | 'failed' | 'cancelled';

export type CompanyJobsTable = {
  id: Id; kind: JobKind; customer_id: number; order_id: number | null; company_id: ColumnType<number | null, number | null | undefined, number | null>;
  payload: Json<Record<string, unknown>>; state: Generated<JobState>; attempts: Generated<number>; run_at: Stamp; lease_until: NullStamp;
  last_error: Generated<string>; result: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: Generated<Date>; finished_at: NullStamp;
};
export type CompanyNoticesTable = {
  company_id: number; expires_at: Stamp; days_before: number; state: Generated<'pending' | 'sent' | 'skipped'>;
  attempts: Generated<number>; lease_until: NullStamp; sent_at: NullStamp;
};
export type CustomerExportsTable = {
  id: Id; customer_id: number; job_id: number; blob_hash: string | null; size: Generated<number>; link_expires_at: NullStamp; created_at: Generated<Date>;
};
export type CustomerExportDownloadsTable = { id: Id; export_id: number; ip: string; user_agent: string; at: Stamp };
export type CustomerCancellationsTable = {
  id: Id; customer_id: number; requested_at: Stamp; purge_at: Stamp; state: Generated<'pending' | 'undone' | 'purged'>; job_id: number;
  undone_at: NullStamp; purged_at: NullStamp;
};

export type CompanyLifeTables = {
  company_jobs: CompanyJobsTable; company_notices: CompanyNoticesTable; customer_exports: CustomerExportsTable;
  customer_export_downloads: CustomerExportDownloadsTable; customer_cancellations: CustomerCancellationsTable;
};
export const withLifeTables = (db: Db) => db.withTables<CompanyLifeTables>();
export type LifeDb = ReturnType<typeof withLifeTables>;
