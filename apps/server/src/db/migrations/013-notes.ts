import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Cloud notes (issue 18, scope 2). A plain note keeps its title, sanitised HTML and the
// text searched; a locked note keeps none of these (NULL, and a CHECK says so), only the
// ciphertext, salt, IV and KDF parameters the client needs, and the SHA-256 of the
// password's proof, with which the server counts wrong tries (note.service.ts).
// Tags and the folder stay readable on a locked note: they only sort it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE note_folders (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX note_folders_user_name ON note_folders(user_id, lower(name));
CREATE TABLE notes (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  folder_id bigint REFERENCES note_folders(id) ON DELETE SET NULL,
  tags text[] NOT NULL DEFAULT '{}',
  title text,
  html text,
  body_text text,
  cipher text,
  iv text,
  salt text,
  kdf text,
  iterations integer,
  verifier bytea,
  failed_tries integer NOT NULL DEFAULT 0,
  lockout_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT notes_plain_or_locked CHECK (
    (cipher IS NULL AND title IS NOT NULL AND html IS NOT NULL AND verifier IS NULL)
    OR (cipher IS NOT NULL AND title IS NULL AND html IS NULL AND body_text IS NULL
        AND iv IS NOT NULL AND salt IS NOT NULL AND kdf IS NOT NULL AND iterations IS NOT NULL AND verifier IS NOT NULL))
);
CREATE INDEX notes_user_updated ON notes(user_id, updated_at DESC, id DESC);
CREATE INDEX notes_user_folder ON notes(user_id, folder_id);
CREATE INDEX notes_tags ON notes USING gin(tags);
`);
}
