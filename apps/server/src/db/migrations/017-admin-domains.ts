import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// The company console, part one (issue 17): DNS checks per hosted domain, the welcome
// mail and the login-page branding. A domain's check row is a durable job: `next_at`
// is when it is due, `lease_until` keeps two nodes from checking it at once, and
// `recheck_until` ends the every-10-minutes rechecks a change starts.
// A domain the admin adds is not hosted until its ownership TXT verifies (else an admin
// could claim someone else's domain and receive its mail here); until then its DKIM key
// waits in `dkim_next_*`. Later, `dkim_next_*` is a rotated key waiting for its record:
// the current key keeps signing until the new one verifies.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE domain_checks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  -- Set once the ownership TXT verifies: only then is the domain hosted (a row in domains).
  domain_id bigint UNIQUE REFERENCES domains(id) ON DELETE CASCADE,
  verify_token text NOT NULL,
  verified_at timestamptz,
  result jsonb,
  checked_at timestamptz,
  check_ms integer,
  next_at timestamptz,
  recheck_until timestamptz,
  lease_until timestamptz,
  dkim_next_selector text,
  dkim_next_private_key text,
  dkim_next_public_key text,
  dkim_previous_selector text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, name)
);
CREATE INDEX domain_checks_due ON domain_checks(next_at) WHERE next_at IS NOT NULL;

CREATE TABLE company_branding (
  company_id bigint PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  display_name text NOT NULL DEFAULT '',
  color text NOT NULL DEFAULT '',
  logo text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE welcome_templates (
  company_id bigint PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT true,
  subject text NOT NULL,
  body text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per user: sendWelcome() adds it (in the caller's transaction), the runner mails it once.
CREATE TABLE welcome_mails (
  user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  state text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX welcome_mails_pending ON welcome_mails(created_at) WHERE state = 'pending';
`);
}
