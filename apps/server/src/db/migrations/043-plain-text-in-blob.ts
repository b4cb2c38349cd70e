import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// A received plain-text mail's body is kept once, in its blob row (issue 13). Its text was the
// blob's own bytes again, decoded: on a 10 KB letter about 6 of the ~18 rows a delivery inserts
// were that copy's TOAST chunks, written, WAL-logged and indexed on the one connection that
// files every delivery. `text_tail` says the text is the blob's last `text_tail` bytes, UTF-8,
// with each CRLF as LF (IngestService sets it only for a blob kept in its row, and the parse
// only when that is exactly its text; features/message/mail-parse.ts); `text_body` is then ''.
// mw_content_text is the one way to read a content's text.
//
// The blob row outlives the content: mail_contents.blob_hash is a foreign key, and the collector
// removes a row only when nothing references it. A row's bytes are never dropped while it lives
// (blob.repository.ts gains bytes for a row that had none, and never removes them).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE mail_contents ADD COLUMN IF NOT EXISTS text_tail int CHECK (text_tail > 0);
CREATE OR REPLACE FUNCTION mw_content_text(body text, blob text, tail int) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN tail IS NULL THEN body ELSE (
    SELECT replace(convert_from(substring(b.data FROM octet_length(b.data) - tail + 1), 'UTF8'), E'\\r\\n', E'\\n')
    FROM blobs b WHERE b.hash = blob) END
$$;
`);
}
