import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row types of migration 017, joined to the Database type with withTables (as features/disk does).

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullStamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json = ColumnType<unknown, string | null | undefined, string | null>;
type Opt<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type DomainChecksTable = {
  id: Generated<number>; company_id: number; name: string; domain_id: Opt<number>; created_at: Stamp; verify_token: string; verified_at: NullStamp; result: Json; checked_at: NullStamp; check_ms: Opt<number>;
  next_at: NullStamp; recheck_until: NullStamp; lease_until: NullStamp;
  dkim_next_selector: Opt<string>; dkim_next_private_key: Opt<string>; dkim_next_public_key: Opt<string>; dkim_previous_selector: Opt<string>;
};
export type CompanyBrandingTable = { company_id: number; display_name: Generated<string>; color: Generated<string>; logo: Generated<string>; updated_at: Stamp };
export type WelcomeTemplatesTable = { company_id: number; enabled: Generated<boolean>; subject: string; body: string; updated_at: Stamp };
export type WelcomeMailsTable = {
  user_id: number; state: Generated<'pending' | 'sent' | 'skipped'>; attempts: Generated<number>; lease_until: NullStamp; created_at: Stamp; sent_at: NullStamp;
};

export type ConsoleTables = {
  domain_checks: DomainChecksTable; company_branding: CompanyBrandingTable; welcome_templates: WelcomeTemplatesTable; welcome_mails: WelcomeMailsTable;
};

export const withConsoleTables = (db: Db) => db.withTables<ConsoleTables>();
