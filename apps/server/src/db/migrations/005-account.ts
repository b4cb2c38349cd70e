import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Account and security (issue 7): second verification, password reset, settings,
// Web Push, bound mailboxes and WeChat login.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE users
  ADD COLUMN avatar_hash text REFERENCES blobs(hash),
  -- RFC 6238 secret (base32). totp_pending holds a secret being set up, until its first code is right.
  ADD COLUMN totp_secret text,
  ADD COLUMN totp_pending text,
  -- Where reset and verification codes go; confirmed by a code before it is stored.
  ADD COLUMN backup_email text,
  ADD COLUMN security_question text,
  ADD COLUMN security_answer_hash text,
  -- Bumped on every password change; tickets carry it, so a change voids them.
  ADD COLUMN password_changed_at timestamptz NOT NULL DEFAULT now();

-- Single-use recovery codes for the authenticator, stored as hashes.
CREATE TABLE recovery_codes (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- Short-lived proofs between steps: a password that still needs its second factor
-- ('login', 'bind'), or a reset whose proof was accepted ('reset').
CREATE TABLE auth_tickets (
  ticket_hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('login', 'bind', 'reset')),
  -- For 'bind': the session that asked to bind this mailbox.
  session_id bigint REFERENCES sessions(id) ON DELETE CASCADE,
  attempts integer NOT NULL DEFAULT 0,
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_tickets_user ON auth_tickets(user_id);

-- Six-digit codes sent by e-mail: to the backup address (login, reset) or to a
-- new backup address being confirmed ('backup'). One live code per (user, purpose).
CREATE TABLE email_codes (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('login', 'reset', 'backup')),
  address text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  sent_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, purpose)
);

-- Per-mailbox app settings (GET /h5/setting/index, POST /h5/setting/app-setting).
CREATE TABLE user_settings (
  user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  notify_new_mail boolean NOT NULL DEFAULT true,
  quiet_enabled boolean NOT NULL DEFAULT false,
  -- Minutes after local midnight; the window may wrap past midnight (22:00-07:00).
  quiet_start smallint NOT NULL DEFAULT 1320 CHECK (quiet_start BETWEEN 0 AND 1439),
  quiet_end smallint NOT NULL DEFAULT 420 CHECK (quiet_end BETWEEN 0 AND 1439),
  -- IANA zone of the user's device, so quiet hours mean the user's night.
  time_zone text NOT NULL DEFAULT 'UTC',
  -- Folder ids whose new mail notifies; Spam never does, whatever is stored here.
  notify_folders jsonb NOT NULL DEFAULT '["0","5"]',
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Web Push subscriptions (RFC 8030 endpoints, RFC 8291 keys), one per device session.
CREATE TABLE push_subscriptions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_id bigint REFERENCES sessions(id) ON DELETE CASCADE,
  endpoint text NOT NULL,
  p256dh text NOT NULL,
  auth text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, endpoint)
);

-- Keys the whole installation shares (the VAPID key pair), made on first start.
CREATE TABLE app_keys (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Another mailbox bound into this one's app by logging in to it (spec §6).
CREATE TABLE mailbox_links (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  linked_user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, linked_user_id),
  CHECK (user_id <> linked_user_id)
);
CREATE INDEX mailbox_links_linked ON mailbox_links(linked_user_id);

-- A WeChat account (OAuth openid of our appid) bound to a mailbox.
CREATE TABLE wechat_bindings (
  openid text PRIMARY KEY,
  unionid text,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wechat_bindings_user ON wechat_bindings(user_id);
`);
}
