import type { ColumnType } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row type of migration 026, joined to the Database type with withTables (as features/note does).

type Stamp = ColumnType<Date, Date | string, Date | string>;

export type IdempotencyKeysTable = {
  user_id: number;
  key: string;
  route: string;
  request_hash: string;
  state: 'pending' | 'done';
  response: string | null;
  created_at: Stamp;
  expires_at: Stamp;
};

export type IdempotencyTables = { idempotency_keys: IdempotencyKeysTable };
export const withIdempotencyTables = (db: Db) => db.withTables<IdempotencyTables>();
