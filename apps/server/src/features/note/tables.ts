import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row types of migration 013, joined to the Database type with withTables so the shared
// db/types.ts needs no edit for them.

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type NoteFoldersTable = { id: Generated<number>; user_id: number; name: string; created_at: Stamp };
export type NotesTable = {
  id: Generated<number>;
  user_id: number;
  folder_id: number | null;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  title: string | null;
  html: string | null;
  body_text: string | null;
  cipher: string | null;
  iv: string | null;
  salt: string | null;
  kdf: string | null;
  iterations: number | null;
  verifier: Buffer | null;
  failed_tries: Generated<number>;
  lockout_until: Date | null;
  created_at: Stamp;
  updated_at: Stamp;
};

export type NoteTables = { note_folders: NoteFoldersTable; notes: NotesTable };
export const withNoteTables = (db: Db) => db.withTables<NoteTables>();
export type NotesDb = ReturnType<typeof withNoteTables>;
