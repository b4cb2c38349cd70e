import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Mail rules (issue 16, scopes 3 and 4): filter rules run on delivery, the jobs that
// run a rule over mail already stored, and auto-reply (vacation) with its per-sender log.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE mail_rules (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  position integer NOT NULL,
  name text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  match_all boolean NOT NULL DEFAULT true,
  conditions jsonb NOT NULL,
  actions jsonb NOT NULL,
  stop boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_rules_user ON mail_rules(user_id, position);

-- What a rule did that must never happen twice (a forward), one row per (rule, mail, action).
CREATE TABLE mail_rule_effects (
  rule_id bigint NOT NULL REFERENCES mail_rules(id) ON DELETE CASCADE,
  message_id bigint NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  kind text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rule_id, message_id, kind)
);
CREATE INDEX mail_rule_effects_message ON mail_rule_effects(message_id);

-- "Run on existing mail in a folder": walked in id order from a cursor, claimed by lease.
CREATE TABLE mail_rule_jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  rule_id bigint NOT NULL REFERENCES mail_rules(id) ON DELETE CASCADE,
  folder_mid integer NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done', 'failed')),
  cursor_id bigint NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  scanned integer NOT NULL DEFAULT 0,
  matched integer NOT NULL DEFAULT 0,
  lease_until timestamptz NOT NULL DEFAULT '-infinity',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_rule_jobs_open ON mail_rule_jobs(lease_until) WHERE state = 'queued';

CREATE TABLE autoreply_settings (
  user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  start_date date,
  end_date date,
  time_zone text NOT NULL DEFAULT 'UTC',
  subject text NOT NULL DEFAULT '',
  body text NOT NULL DEFAULT '',
  interval_days integer NOT NULL DEFAULT 4 CHECK (interval_days BETWEEN 1 AND 30),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- At most one reply per sender per interval: the row is claimed with one conditional upsert.
CREATE TABLE autoreply_log (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  sender text NOT NULL,
  last_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, sender)
);
`);
}
