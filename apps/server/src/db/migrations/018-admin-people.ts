import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 17, people / quotas / groups.
// - admin_scopes: an admin with rows here manages only those departments' subtrees
//   (spec §6); an admin without rows manages the whole company.
// - companies.quota_bytes: the company total that per-user quotas are allocated from.
// - users.disk_bytes: disk usage kept by trigger like used_bytes is for mail, so the
//   SMTP recipient check reads one users row (no sum per message).
// - users.quota_level: the last warning level reached (0/85/90/95/100). The trigger
//   queues one quota_notices row when usage crosses a higher level and re-arms when
//   usage falls, whatever path (mail, disk, admin quota edit) changed the numbers.
// - mail groups gain department and outside-address members and a "who may send" policy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE admin_scopes (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  department_id bigint NOT NULL REFERENCES departments(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, department_id)
);

ALTER TABLE companies ADD COLUMN quota_bytes bigint;

ALTER TABLE users ADD COLUMN disk_bytes bigint NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN quota_level smallint NOT NULL DEFAULT 0;
UPDATE users u SET disk_bytes = d.b
  FROM (SELECT user_id, sum(size)::bigint AS b FROM disk_nodes WHERE NOT is_folder GROUP BY 1) d WHERE u.id = d.user_id;

CREATE FUNCTION disk_bytes_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users u SET disk_bytes = u.disk_bytes + d.b
    FROM (SELECT user_id, sum(size)::bigint AS b FROM new_rows WHERE NOT is_folder GROUP BY 1 ORDER BY 1) d WHERE u.id = d.user_id AND d.b <> 0;
  RETURN NULL;
END $$;
CREATE FUNCTION disk_bytes_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users u SET disk_bytes = u.disk_bytes - d.b
    FROM (SELECT user_id, sum(size)::bigint AS b FROM old_rows WHERE NOT is_folder GROUP BY 1 ORDER BY 1) d WHERE u.id = d.user_id AND d.b <> 0;
  RETURN NULL;
END $$;
CREATE FUNCTION disk_bytes_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users u SET disk_bytes = u.disk_bytes + d.b
    FROM (SELECT user_id, sum(b)::bigint AS b FROM (
      SELECT user_id, size AS b FROM new_rows WHERE NOT is_folder
      UNION ALL SELECT user_id, -size FROM old_rows WHERE NOT is_folder) x GROUP BY 1 ORDER BY 1) d
    WHERE u.id = d.user_id AND d.b <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER disk_bytes_ins AFTER INSERT ON disk_nodes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION disk_bytes_ins();
CREATE TRIGGER disk_bytes_del AFTER DELETE ON disk_nodes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION disk_bytes_del();
CREATE TRIGGER disk_bytes_upd AFTER UPDATE ON disk_nodes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION disk_bytes_upd();

CREATE TABLE quota_notices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  level smallint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  sent_at timestamptz
);
CREATE INDEX quota_notices_due ON quota_notices(id) WHERE sent_at IS NULL;

CREATE FUNCTION users_quota_level() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE used bigint := NEW.used_bytes + NEW.disk_bytes; lvl smallint;
BEGIN
  lvl := CASE WHEN NEW.quota_bytes <= 0 OR used >= NEW.quota_bytes THEN 100
              WHEN used * 100 >= NEW.quota_bytes * 95 THEN 95
              WHEN used * 100 >= NEW.quota_bytes * 90 THEN 90
              WHEN used * 100 >= NEW.quota_bytes * 85 THEN 85 ELSE 0 END;
  IF lvl > NEW.quota_level THEN INSERT INTO quota_notices (user_id, level) VALUES (NEW.id, lvl); END IF;
  NEW.quota_level := lvl;
  RETURN NEW;
END $$;
CREATE TRIGGER users_quota_level BEFORE UPDATE OF used_bytes, disk_bytes, quota_bytes ON users
  FOR EACH ROW WHEN (NEW.used_bytes IS DISTINCT FROM OLD.used_bytes OR NEW.disk_bytes IS DISTINCT FROM OLD.disk_bytes OR NEW.quota_bytes IS DISTINCT FROM OLD.quota_bytes)
  EXECUTE FUNCTION users_quota_level();

ALTER TABLE mail_groups ADD COLUMN send_policy text NOT NULL DEFAULT 'anyone' CHECK (send_policy IN ('anyone', 'company', 'members', 'listed'));
CREATE TABLE mail_group_departments (
  group_id bigint NOT NULL REFERENCES mail_groups(id) ON DELETE CASCADE,
  department_id bigint NOT NULL REFERENCES departments(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, department_id)
);
CREATE TABLE mail_group_outside (
  group_id bigint NOT NULL REFERENCES mail_groups(id) ON DELETE CASCADE,
  address text NOT NULL CHECK (address = lower(address)),
  PRIMARY KEY (group_id, address)
);
CREATE TABLE mail_group_senders (
  group_id bigint NOT NULL REFERENCES mail_groups(id) ON DELETE CASCADE,
  address text NOT NULL CHECK (address = lower(address)),
  PRIMARY KEY (group_id, address)
);
CREATE INDEX aliases_user ON aliases(user_id);
`);
}
