import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 17, scopes 4 and 6: outgoing-mail audit rules, the held mail they catch, an
// append-only log of every decision, the single-use links auditors get by mail, and the
// company block/allow lists.
//
// The company-wide switch of migration 002 (companies.audit_outgoing) is replaced by
// rules: a company that had it on gets an "all outgoing mail" rule audited by its admins,
// and the column is no longer read.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE audit_rules (
  id bigserial PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('member', 'department', 'keyword', 'size', 'domain', 'external', 'all')),
  params jsonb NOT NULL DEFAULT '{}',
  auditors bigint[] NOT NULL CHECK (cardinality(auditors) > 0),
  timeout_min integer NOT NULL DEFAULT 1440 CHECK (timeout_min BETWEEN 1 AND 43200),
  on_timeout text NOT NULL DEFAULT 'pass' CHECK (on_timeout IN ('pass', 'reject')),
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_rules_company ON audit_rules(company_id) WHERE enabled;

-- One row per held mail; it is also the durable timeout job (claimed FOR UPDATE SKIP LOCKED).
CREATE TABLE audit_items (
  id bigserial PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  message_id bigint NOT NULL UNIQUE REFERENCES messages(id) ON DELETE CASCADE,
  sender_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  rule_ids bigint[] NOT NULL,
  auditors bigint[] NOT NULL,
  state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'auditing', 'passed', 'rejected', 'withdrawn')),
  reason text,
  due_at timestamptz NOT NULL,
  on_timeout text NOT NULL CHECK (on_timeout IN ('pass', 'reject')),
  decided_by bigint,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_items_open_due ON audit_items(due_at) WHERE state IN ('waiting', 'auditing');
CREATE INDEX audit_items_company ON audit_items(company_id, created_at DESC);
CREATE INDEX audit_items_auditors ON audit_items USING gin(auditors);

-- Append-only: no foreign keys (a cascade would be a DELETE), and a trigger refuses
-- UPDATE, DELETE and TRUNCATE, so no code path can rewrite what an auditor decided.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  company_id bigint NOT NULL,
  item_id bigint NOT NULL,
  message_id bigint NOT NULL,
  action text NOT NULL,
  actor_id bigint,
  via text NOT NULL,
  reason text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_company ON audit_log(company_id, id DESC);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- Links in the auditor's notification mail: a random token stored only as its hash,
-- one auditor and one action each, spent on first use, dead after expires_at.
CREATE TABLE audit_links (
  id bigserial PRIMARY KEY,
  item_id bigint NOT NULL REFERENCES audit_items(id) ON DELETE CASCADE,
  auditor_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  action text NOT NULL CHECK (action IN ('pass', 'reject')),
  token_hash bytea NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE company_list_entries (
  id bigserial PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('block', 'allow')),
  pattern text NOT NULL,
  note text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, kind, pattern)
);

INSERT INTO audit_rules (company_id, name, kind, auditors)
  SELECT c.id, 'All outgoing mail', 'all', array_agg(u.id ORDER BY u.id)
  FROM companies c JOIN users u ON u.company_id = c.id AND u.role = 'admin'
  WHERE c.audit_outgoing GROUP BY c.id;
UPDATE companies SET audit_outgoing = false WHERE audit_outgoing;
`);
}
