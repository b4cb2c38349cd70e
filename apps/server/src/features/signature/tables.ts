import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/connect.js';

// Row types of migration 009. Kept beside the features that use them and joined to the
// Database type with withTables, so the shared db/types.ts needs no edit for them.

type Id = Generated<number>;
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type SignaturesTable = { id: Id; user_id: number; name: string; html: string; created_at: Stamp; updated_at: Stamp };
export type SignatureDefaultsTable = { user_id: number; new_id: number | null; reply_id: number | null; reply_same: Generated<boolean> };
export type TemplateCategoriesTable = { id: Id; user_id: number | null; company_id: number | null; name: string; created_at: Stamp };
export type TemplatesTable = {
  id: Id; user_id: number | null; company_id: number | null; category_id: number | null;
  name: string; subject: Generated<string>; html: string; created_at: Stamp; updated_at: Stamp;
};

export type RuleTables = {
  signatures: SignaturesTable;
  signature_defaults: SignatureDefaultsTable;
  template_categories: TemplateCategoriesTable;
  templates: TemplatesTable;
};

export const withRuleTables = (db: Db) => db.withTables<RuleTables>();
export type RulesDb = ReturnType<typeof withRuleTables>;
