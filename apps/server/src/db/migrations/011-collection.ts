import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Collecting mail from other mailboxes over POP3 and IMAP (issue 16, scope 5).
// An account row is also its own queue job: next_run_at says when it is due and
// lease_until which node holds it (claimed with FOR UPDATE SKIP LOCKED).
// The password is AES-256-GCM ciphertext under the installation key (collect/secret-box.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE collect_accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  protocol text NOT NULL CHECK (protocol IN ('pop3', 'imap')),
  host text NOT NULL,
  port integer NOT NULL,
  tls text NOT NULL CHECK (tls IN ('tls', 'starttls', 'none')),
  username text NOT NULL,
  secret text NOT NULL,
  leave_copy boolean NOT NULL DEFAULT true,
  folder_mid integer NOT NULL,
  interval_min integer NOT NULL CHECK (interval_min BETWEEN 5 AND 60),
  next_run_at timestamptz NOT NULL,
  lease_until timestamptz,
  paused boolean NOT NULL DEFAULT false,
  auth_failures integer NOT NULL DEFAULT 0,
  last_run_at timestamptz,
  last_count integer NOT NULL DEFAULT 0,
  last_bytes bigint NOT NULL DEFAULT 0,
  total_count bigint NOT NULL DEFAULT 0,
  error_kind text,
  error_reply text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX collect_accounts_user ON collect_accounts (user_id, id);
CREATE INDEX collect_accounts_due ON collect_accounts (next_run_at) WHERE NOT paused;

-- POP3: the UIDLs already stored (RFC 1939 caps them at 70 characters; some servers send longer, so text).
CREATE TABLE collect_uidls (
  account_id bigint NOT NULL REFERENCES collect_accounts(id) ON DELETE CASCADE,
  uidl text NOT NULL,
  UNIQUE (account_id, uidl)
);

-- IMAP: per remote folder, the UIDVALIDITY seen and the highest UID stored.
CREATE TABLE collect_imap_state (
  account_id bigint NOT NULL REFERENCES collect_accounts(id) ON DELETE CASCADE,
  folder text NOT NULL,
  uidvalidity bigint NOT NULL,
  last_uid bigint NOT NULL,
  PRIMARY KEY (account_id, folder)
);

-- What one user has already collected from one remote mailbox (host + login), whatever account
-- row fetched it: a re-added account, or POP3 and IMAP on the same mailbox, import nothing twice.
CREATE TABLE collect_seen (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source text NOT NULL,
  fingerprint text NOT NULL,
  PRIMARY KEY (user_id, source, fingerprint)
);
`);
}
