import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row types of migration 018, joined to the Database type with withTables so the
// shared db/types.ts needs no edit. Columns added to existing tables intersect with
// their declared rows (users, companies, mail_groups).

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullStamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type SendPolicy = 'anyone' | 'company' | 'members' | 'listed';

export type PeopleTables = {
  admin_scopes: { user_id: number; department_id: number };
  quota_notices: { id: Generated<number>; user_id: number; level: number; created_at: Stamp; claimed_until: NullStamp; sent_at: NullStamp };
  mail_group_departments: { group_id: number; department_id: number };
  mail_group_outside: { group_id: number; address: string };
  mail_group_senders: { group_id: number; address: string };
  users: { disk_bytes: Generated<number>; quota_level: Generated<number> };
  companies: { quota_bytes: ColumnType<number | null, number | null | undefined, number | null> };
  mail_groups: { send_policy: Generated<SendPolicy> };
};

export const withPeopleTables = (db: Db) => db.withTables<PeopleTables>();
export type PeopleDb = ReturnType<typeof withPeopleTables>;
