import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row types of migration 014, joined to the Database type with withTables so the
// shared db/types.ts needs no edit for them.

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullStamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type DiskNodesTable = {
  id: Generated<number>; user_id: number; parent_id: number | null; is_folder: boolean; name: string;
  size: Generated<number>; blob_hash: string | null; content_type: Generated<string>;
  created_at: Stamp; updated_at: Stamp; deleted_at: NullStamp;
};
export type DiskUploadsTable = {
  id: string; user_id: number; parent_id: number | null; name: string; length: number; sha256: string;
  created_at: Stamp; expires_at: Stamp;
};
export type DiskSharesTable = {
  id: Generated<number>; user_id: number; node_id: number; token_hash: string; password_hash: string | null;
  failed_tries: Generated<number>; expires_at: NullStamp; created_at: Stamp;
};

/** Migration 021: the process holding a tus upload, under a lease. */
export type DiskUploadLocksTable = { upload_id: string; holder: string; lease_until: Stamp };

export type DiskTables = { disk_nodes: DiskNodesTable; disk_uploads: DiskUploadsTable; disk_shares: DiskSharesTable; disk_upload_locks: DiskUploadLocksTable };

export const withDiskTables = (db: Db) => db.withTables<DiskTables>();
export type DiskDb = ReturnType<typeof withDiskTables>;
