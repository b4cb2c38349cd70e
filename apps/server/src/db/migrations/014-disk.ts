import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// The network disk (issue 18, scope 3). Files and folders are one tree per user; a
// file's bytes are a blob (refcounted like mail). `deleted_at` puts a node in the
// recycle bin: its subtree goes with it without being marked. Unfinished tus uploads
// hold their Upload-Length against the quota until they finish or expire.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE disk_nodes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  parent_id bigint REFERENCES disk_nodes(id) ON DELETE CASCADE,
  is_folder boolean NOT NULL,
  name text NOT NULL,
  size bigint NOT NULL DEFAULT 0,
  blob_hash text REFERENCES blobs(hash),
  content_type text NOT NULL DEFAULT 'application/octet-stream',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CHECK (is_folder = (blob_hash IS NULL))
);
CREATE INDEX disk_nodes_children ON disk_nodes(user_id, parent_id);
CREATE UNIQUE INDEX disk_nodes_sibling_name ON disk_nodes(user_id, coalesce(parent_id, 0), lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX disk_nodes_bin ON disk_nodes(user_id, deleted_at) WHERE deleted_at IS NOT NULL;

CREATE TABLE disk_uploads (
  id text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  parent_id bigint,
  name text NOT NULL,
  length bigint NOT NULL,
  sha256 text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX disk_uploads_user ON disk_uploads(user_id);
CREATE INDEX disk_uploads_expiry ON disk_uploads(expires_at);

CREATE TABLE disk_shares (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  node_id bigint NOT NULL REFERENCES disk_nodes(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  password_hash text,
  failed_tries integer NOT NULL DEFAULT 0,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX disk_shares_node ON disk_shares(user_id, node_id);
`);
}
