import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 17, scopes 8 and 5: mail migration from another IMAP server, and announcements.
//
// A migrate_accounts row is its own queue job (like collect_accounts): `state` says where
// it is, lease_until which node holds it (claimed with FOR UPDATE SKIP LOCKED), so a job a
// killed process held is taken again once its lease runs out. migrate_folders keeps, per
// remote folder, the UID state of the shared IMAP engine and the progress shown to the
// admin. Which messages were copied is kept in collect_seen (Message-ID plus size), the
// engine's own record, under a source naming the remote mailbox and folder.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE migrate_accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  host text NOT NULL,
  port integer NOT NULL,
  tls text NOT NULL CHECK (tls IN ('tls', 'starttls', 'none')),
  username text NOT NULL,
  secret text NOT NULL,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
  finalise boolean NOT NULL DEFAULT false,
  reason text,
  error_reply text,
  lease_until timestamptz,
  runs integer NOT NULL DEFAULT 0,
  copied_messages bigint NOT NULL DEFAULT 0,
  copied_bytes bigint NOT NULL DEFAULT 0,
  started_at timestamptz,
  finished_at timestamptz,
  finalised_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, user_id, host, username)
);
CREATE INDEX migrate_accounts_company ON migrate_accounts (company_id, id);
CREATE INDEX migrate_accounts_due ON migrate_accounts (id) WHERE state IN ('queued', 'running');

CREATE TABLE migrate_folders (
  account_id bigint NOT NULL REFERENCES migrate_accounts(id) ON DELETE CASCADE,
  folder text NOT NULL,
  target_mid integer NOT NULL,
  uidvalidity bigint,
  last_uid bigint NOT NULL DEFAULT 0,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
  messages_total integer NOT NULL DEFAULT 0,
  bytes_total bigint NOT NULL DEFAULT 0,
  messages_done integer NOT NULL DEFAULT 0,
  bytes_done bigint NOT NULL DEFAULT 0,
  copied_messages integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, folder)
);

CREATE TABLE announcements (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  author_id bigint REFERENCES users(id) ON DELETE SET NULL,
  title text NOT NULL,
  body text NOT NULL,
  -- Empty: everyone in the company; else these departments and the ones under them.
  department_ids bigint[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX announcements_company ON announcements (company_id, id DESC);

CREATE TABLE announcement_reads (
  announcement_id bigint NOT NULL REFERENCES announcements(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (announcement_id, user_id)
);
`);
}
