import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// The whole-roadmap tenancy model: reseller customers own companies; companies own
// domains, a department tree, users (mailboxes), aliases and groups. Mail is one
// raw blob shared by every local recipient, with a parsed content row shared too,
// and one `messages` row per mailbox that holds that mailbox's flags and folder.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE customers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  name text NOT NULL DEFAULT '',
  balance_cents bigint NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'active',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE companies (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id bigint REFERENCES customers(id),
  name text NOT NULL,
  plan text NOT NULL DEFAULT 'standard',
  seats integer NOT NULL DEFAULT 50,
  expires_at timestamptz,
  status text NOT NULL DEFAULT 'active',
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE domains (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL UNIQUE,
  dkim_selector text NOT NULL,
  dkim_private_key text NOT NULL,
  dkim_public_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX domains_company ON domains(company_id);

CREATE TABLE departments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  parent_id bigint REFERENCES departments(id) ON DELETE CASCADE,
  name text NOT NULL,
  sort integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX departments_company ON departments(company_id, parent_id);

CREATE TABLE users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  domain_id bigint NOT NULL REFERENCES domains(id),
  department_id bigint REFERENCES departments(id) ON DELETE SET NULL,
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash text NOT NULL,
  name text NOT NULL DEFAULT '',
  role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  job_title text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  quota_bytes bigint NOT NULL DEFAULT 5368709120,
  used_bytes bigint NOT NULL DEFAULT 0,
  language text CHECK (language IN ('zh', 'en')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_company ON users(company_id, department_id);

CREATE TABLE aliases (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  address text NOT NULL UNIQUE CHECK (address = lower(address)),
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE
);

-- Group and department addresses; mail through them lands in GroupMail (folder 5).
CREATE TABLE mail_groups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  address text NOT NULL UNIQUE CHECK (address = lower(address)),
  name text NOT NULL,
  department_id bigint REFERENCES departments(id) ON DELETE CASCADE
);
CREATE TABLE mail_group_members (
  group_id bigint NOT NULL REFERENCES mail_groups(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, user_id)
);

CREATE TABLE sessions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Failed-attempt windows for rate limits, keyed like 'login:acct:alice@demo.test'.
-- Kept in the database, not in memory, so every node sees the same counts.
CREATE TABLE auth_failures (
  key text PRIMARY KEY,
  count integer NOT NULL,
  window_start timestamptz NOT NULL
);

CREATE SEQUENCE folder_mid_seq START 100;
CREATE TABLE folders (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  mid integer NOT NULL,
  parent_mid integer,
  name text NOT NULL,
  depth smallint NOT NULL CHECK (depth BETWEEN 1 AND 3),
  unread integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, mid),
  FOREIGN KEY (user_id, parent_mid) REFERENCES folders(user_id, mid) ON DELETE CASCADE
);
CREATE UNIQUE INDEX folders_sibling_name ON folders(user_id, coalesce(parent_mid, -1), lower(name));

CREATE TABLE blobs (
  hash text PRIMARY KEY,
  size bigint NOT NULL,
  refcount integer NOT NULL DEFAULT 0 CHECK (refcount >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blobs_unreferenced ON blobs(hash) WHERE refcount = 0;

-- The parsed form of one raw message, shared by all its local recipients.
CREATE TABLE mail_contents (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  blob_hash text NOT NULL REFERENCES blobs(hash),
  message_id text NOT NULL DEFAULT '',
  in_reply_to text NOT NULL DEFAULT '',
  references_list text NOT NULL DEFAULT '',
  subject text NOT NULL DEFAULT '',
  from_name text NOT NULL DEFAULT '',
  from_address text NOT NULL DEFAULT '',
  to_list jsonb NOT NULL DEFAULT '[]',
  cc_list jsonb NOT NULL DEFAULT '[]',
  reply_to jsonb NOT NULL DEFAULT '[]',
  sent_at timestamptz,
  snippet text NOT NULL DEFAULT '',
  html text NOT NULL DEFAULT '',
  text_body text NOT NULL DEFAULT '',
  attachments jsonb NOT NULL DEFAULT '[]',
  remote_images boolean NOT NULL DEFAULT false,
  urgent boolean NOT NULL DEFAULT false,
  parse_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL,
  folder_mid integer NOT NULL,
  content_id bigint NOT NULL REFERENCES mail_contents(id),
  blob_hash text NOT NULL REFERENCES blobs(hash),
  size integer NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  seen boolean NOT NULL DEFAULT false,
  star boolean NOT NULL DEFAULT false,
  urgent boolean NOT NULL DEFAULT false,
  answered boolean NOT NULL DEFAULT false,
  forwarded boolean NOT NULL DEFAULT false,
  has_attach boolean NOT NULL DEFAULT false,
  -- Outbound life of a sent copy: sending, sent, send_failed, recalled, audit_*.
  delivery_state text,
  bcc jsonb NOT NULL DEFAULT '[]',
  note text NOT NULL DEFAULT '',
  images_allowed boolean NOT NULL DEFAULT false,
  FOREIGN KEY (user_id, folder_mid) REFERENCES folders(user_id, mid)
);
CREATE INDEX messages_folder_time ON messages(user_id, folder_mid, received_at DESC, id DESC);
CREATE INDEX messages_content ON messages(content_id);
CREATE INDEX messages_blob ON messages(blob_hash);

CREATE TABLE tags (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  color text NOT NULL DEFAULT '#2086EE',
  UNIQUE (user_id, name)
);
CREATE TABLE message_tags (
  message_id bigint NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  tag_id bigint NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (message_id, tag_id)
);

-- Outbound delivery queue: one row per (message, recipient); the key makes a
-- retry after a recorded success a no-op (DESIGN.md durability rule).
CREATE TABLE outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id bigint REFERENCES messages(id) ON DELETE SET NULL,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  blob_hash text NOT NULL REFERENCES blobs(hash),
  mail_from text NOT NULL,
  rcpt text NOT NULL,
  idempotency_key text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('held', 'queued', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE status = 'queued';

-- Folder counters and quota usage follow every message change, whatever code path
-- made it. Statement-level with transition tables, so a batch of N rows costs one
-- update per (mailbox, folder) instead of N.
CREATE FUNCTION messages_counters_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE folders f SET total = f.total + d.n, unread = f.unread + d.u
    FROM (SELECT user_id, folder_mid, count(*)::int AS n, count(*) FILTER (WHERE NOT seen)::int AS u FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2) d
    WHERE f.user_id = d.user_id AND f.mid = d.folder_mid;
  UPDATE users u SET used_bytes = u.used_bytes + d.b
    FROM (SELECT user_id, sum(size)::bigint AS b FROM new_rows GROUP BY 1 ORDER BY 1) d WHERE u.id = d.user_id;
  RETURN NULL;
END $$;
CREATE FUNCTION messages_counters_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE folders f SET total = f.total - d.n, unread = f.unread - d.u
    FROM (SELECT user_id, folder_mid, count(*)::int AS n, count(*) FILTER (WHERE NOT seen)::int AS u FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) d
    WHERE f.user_id = d.user_id AND f.mid = d.folder_mid;
  UPDATE users u SET used_bytes = u.used_bytes - d.b
    FROM (SELECT user_id, sum(size)::bigint AS b FROM old_rows GROUP BY 1 ORDER BY 1) d WHERE u.id = d.user_id;
  RETURN NULL;
END $$;
CREATE FUNCTION messages_counters_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE folders f SET total = f.total + d.n, unread = f.unread + d.u
    FROM (
      SELECT user_id, folder_mid, sum(n)::int AS n, sum(u)::int AS u FROM (
        SELECT o.user_id, o.folder_mid, -1 AS n, CASE WHEN o.seen THEN 0 ELSE -1 END AS u
          FROM old_rows o JOIN new_rows nw ON nw.id = o.id WHERE o.folder_mid <> nw.folder_mid OR o.seen <> nw.seen
        UNION ALL
        SELECT nw.user_id, nw.folder_mid, 1, CASE WHEN nw.seen THEN 0 ELSE 1 END
          FROM old_rows o JOIN new_rows nw ON nw.id = o.id WHERE o.folder_mid <> nw.folder_mid OR o.seen <> nw.seen
      ) c GROUP BY 1, 2 ORDER BY 1, 2
    ) d
    WHERE f.user_id = d.user_id AND f.mid = d.folder_mid AND (d.n <> 0 OR d.u <> 0);
  RETURN NULL;
END $$;
CREATE TRIGGER messages_counters_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_counters_ins();
CREATE TRIGGER messages_counters_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_counters_del();
CREATE TRIGGER messages_counters_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_counters_upd();
`);
}
