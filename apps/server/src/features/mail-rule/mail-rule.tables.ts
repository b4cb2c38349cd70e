import type { ColumnType, Generated } from 'kysely';
import type { RuleAction, RuleCondition } from '@mailwing/shared';

// The tables of migration 010, added to the Database type by declaration merging so
// that the shared db/types.ts needs no edit.
type Id = Generated<number>;
type Json<T> = ColumnType<T, string, string>;
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface MailRulesTable {
  id: Id; user_id: number; position: number; name: string; enabled: Generated<boolean>; match_all: Generated<boolean>;
  conditions: Json<RuleCondition[]>; actions: Json<RuleAction[]>; stop: Generated<boolean>; created_at: Stamp; updated_at: Stamp;
}
export interface MailRuleEffectsTable { rule_id: number; message_id: number; kind: string; created_at: Stamp }
export interface MailRuleJobsTable {
  id: Id; user_id: number; rule_id: number; folder_mid: number; state: Generated<'queued' | 'done' | 'failed'>; cursor_id: Generated<number>;
  total: Generated<number>; scanned: Generated<number>; matched: Generated<number>; lease_until: Stamp; created_at: Stamp; updated_at: Stamp;
}
export interface AutoreplySettingsTable {
  user_id: number; enabled: boolean; start_date: ColumnType<string | null, string | null, string | null>; end_date: ColumnType<string | null, string | null, string | null>;
  time_zone: string; subject: string; body: string; interval_days: number; updated_at: Stamp;
}
export interface AutoreplyLogTable { user_id: number; sender: string; last_at: Date }

declare module '../../db/types.js' {
  interface Database {
    mail_rules: MailRulesTable;
    mail_rule_effects: MailRuleEffectsTable;
    mail_rule_jobs: MailRuleJobsTable;
    autoreply_settings: AutoreplySettingsTable;
    autoreply_log: AutoreplyLogTable;
  }
}
