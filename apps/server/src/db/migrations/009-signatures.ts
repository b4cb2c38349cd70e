import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 16, scopes 1 and 2: signatures (several per mailbox, with defaults for new mail
// and for replies/forwards) and templates with categories, personal or company-wide.
// A template or category belongs to exactly one owner: a mailbox (user_id) or a company.
// Deleting a signature clears a default that named it (ON DELETE SET NULL); deleting a
// category leaves its templates uncategorised.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE signatures (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  html text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signatures_user ON signatures(user_id, id);
CREATE UNIQUE INDEX signatures_user_name ON signatures(user_id, lower(name));
CREATE TABLE signature_defaults (
  user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  new_id bigint REFERENCES signatures(id) ON DELETE SET NULL,
  reply_id bigint REFERENCES signatures(id) ON DELETE SET NULL,
  reply_same boolean NOT NULL DEFAULT true
);
CREATE TABLE template_categories (
  id bigserial PRIMARY KEY,
  user_id bigint REFERENCES users(id) ON DELETE CASCADE,
  company_id bigint REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((user_id IS NULL) <> (company_id IS NULL))
);
CREATE UNIQUE INDEX template_categories_user_name ON template_categories(user_id, lower(name)) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX template_categories_company_name ON template_categories(company_id, lower(name)) WHERE company_id IS NOT NULL;
CREATE TABLE templates (
  id bigserial PRIMARY KEY,
  user_id bigint REFERENCES users(id) ON DELETE CASCADE,
  company_id bigint REFERENCES companies(id) ON DELETE CASCADE,
  category_id bigint REFERENCES template_categories(id) ON DELETE SET NULL,
  name text NOT NULL,
  subject text NOT NULL DEFAULT '',
  html text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((user_id IS NULL) <> (company_id IS NULL))
);
CREATE INDEX templates_user ON templates(user_id) WHERE user_id IS NOT NULL;
CREATE INDEX templates_company ON templates(company_id) WHERE company_id IS NOT NULL;
`);
}
