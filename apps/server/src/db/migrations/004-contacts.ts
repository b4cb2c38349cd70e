import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Address book (issue 6): personal contacts and groups, and sender rules applied on receipt.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE contact_groups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contact_groups_name ON contact_groups(user_id, lower(name));

CREATE TABLE contacts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  email text NOT NULL CHECK (email = lower(email)),
  phone text NOT NULL DEFAULT '',
  company text NOT NULL DEFAULT '',
  job_title text NOT NULL DEFAULT '',
  job_number text NOT NULL DEFAULT '',
  important boolean NOT NULL DEFAULT false,
  -- The index-bar letter and the sort key, from pinyin for Chinese names (pinyin-pro).
  initial text NOT NULL,
  sort_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One contact per address in a book: imports update instead of duplicating.
CREATE UNIQUE INDEX contacts_email ON contacts(user_id, email);
CREATE INDEX contacts_order ON contacts(user_id, important DESC, sort_key);
CREATE INDEX contacts_important ON contacts(user_id, email) WHERE important;

CREATE TABLE contact_group_members (
  group_id bigint NOT NULL REFERENCES contact_groups(id) ON DELETE CASCADE,
  contact_id bigint NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, contact_id)
);
CREATE INDEX contact_group_members_contact ON contact_group_members(contact_id);

-- Personal block and allow lists: an address or a whole domain.
CREATE TABLE sender_rules (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('block', 'allow')),
  pattern text NOT NULL CHECK (pattern = lower(pattern)),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, kind, pattern)
);
CREATE INDEX sender_rules_pattern ON sender_rules(pattern);
`);
}
