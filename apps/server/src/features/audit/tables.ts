import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row types of migration 019, joined to the Database type with withTables so the shared
// db/types.ts needs no edit for them.

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

export type AuditRuleKind = 'member' | 'department' | 'keyword' | 'size' | 'domain' | 'external' | 'all';
export interface AuditRuleParams {
  userIds?: number[];
  departmentIds?: number[];
  keywords?: string[];
  /** Where keywords are looked for; all three when absent. */
  fields?: ('subject' | 'body' | 'attachment')[];
  minBytes?: number;
  domains?: string[];
}
export type AuditItemState = 'waiting' | 'auditing' | 'passed' | 'rejected' | 'withdrawn';

export interface AuditRulesTable {
  id: Generated<number>; company_id: number; name: string; kind: AuditRuleKind; params: Json<AuditRuleParams>;
  auditors: ColumnType<number[], number[], number[]>; timeout_min: number; on_timeout: 'pass' | 'reject'; enabled: Generated<boolean>; created_at: Stamp;
}
export interface AuditItemsTable {
  id: Generated<number>; company_id: number; message_id: number; sender_id: number; rule_ids: ColumnType<number[], number[], number[]>;
  auditors: ColumnType<number[], number[], number[]>; state: ColumnType<AuditItemState, AuditItemState | undefined, AuditItemState>;
  reason: string | null; due_at: Date; on_timeout: 'pass' | 'reject'; decided_by: number | null; decided_at: Date | null; created_at: Stamp;
}
export interface AuditLogTable {
  id: Generated<number>; company_id: number; item_id: number; message_id: number; action: string; actor_id: number | null; via: string; reason: string | null; at: Stamp;
}
export interface AuditLinksTable {
  id: Generated<number>; item_id: number; auditor_id: number; action: 'pass' | 'reject'; token_hash: Buffer; expires_at: Date; used_at: Date | null;
}
export interface CompanyListEntriesTable {
  id: Generated<number>; company_id: number; kind: 'block' | 'allow'; pattern: string; note: Generated<string>; created_at: Stamp;
}

export type AuditTables = {
  audit_rules: AuditRulesTable; audit_items: AuditItemsTable; audit_log: AuditLogTable; audit_links: AuditLinksTable; company_list_entries: CompanyListEntriesTable;
};
export const withAuditTables = (db: Db) => db.withTables<AuditTables>();
export type AuditDb = ReturnType<typeof withAuditTables>;
