import type { ColumnType } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row type of migration 022, joined to the Database type with withTables (as features/note does).

export type SendSettingsTable = {
  user_id: number;
  undo_seconds: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

export type UndoSendTables = { send_settings: SendSettingsTable };
export const withUndoSendTables = (db: Db) => db.withTables<UndoSendTables>();
