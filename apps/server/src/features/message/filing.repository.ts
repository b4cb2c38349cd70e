import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { packBytes } from '../../db/packed-bytes.js';
import { preparedAs } from '../../db/prepared.js';
import { addRefsSql, type BlobRef } from '../../blob/blob.repository.js';
import { INACTIVE_MAILBOX_STATE, inactiveMailbox, threadedInsertSql, type DeliveredRow } from '../conversation/conversation.repository.js';
import { contentColumns } from './message.repository.js';
import type { ParsedContent } from './mail-parse.js';

/**
 * What one delivery batch writes (IngestService): `rows[].content` is a position (from 1) in `contents`.
 * A content with `textTail` has its text read from its blob's row (migration 043), which this batch
 * or an earlier one gives its bytes: its text is not written again.
 */
export interface FilingBatch {
  blobs: BlobRef[];
  contents: { hash: string; content: ParsedContent; textTail?: number }[];
  rows: DeliveredRow[];
}

/**
 * Files a batch of delivered mail in one statement: the blobs' new references, the parsed
 * contents, their place in the search indexer's queue (migration 037), and the
 * mail rows, threaded (and counted by the messages trigger, migration 032).
 *
 * Issue 13: this was a transaction of six round trips (BEGIN, four statements, COMMIT). With
 * the embedded database one transaction runs at a time, and each round trip waited for both
 * threads' turns: a batch took ~45 ms while the database thread was a third busy. Run on its
 * own, the statement is its own transaction, so it commits or fails whole; callers that write
 * more in the same commit run it inside theirs. Returns the new mail ids in the order of `rows`.
 */
export async function fileMail(db: Db, batch: FilingBatch): Promise<number[]> {
  const columns = batch.contents.map((c) => ({ ...contentColumns(c.hash, c.content), ...(c.textTail ? { text_body: '', text_tail: c.textTail } : { text_tail: null }) }));
  const col = <K extends keyof (typeof columns)[number]>(k: K) => columns.map((c) => c[k]);
  // The bodies as bytes (packBytes): as text[] they were escaped here and re-read by array_in,
  // 0.3-0.6 ms per five 10 KB bodies on each side (30 Nov). convert_from checks they are UTF-8, as text input does.
  const text = packBytes(columns.map((c) => Buffer.from(c.text_body, 'utf8')));
  const html = packBytes(columns.map((c) => Buffer.from(c.html, 'utf8')));
  // Identity values are drawn in the order rows are inserted (ORDER BY v.k), so the k-th smallest new id is the k-th content.
  const query = sql<{ id: number }>`${preparedAs('file_mail')}WITH new_blobs AS (${addRefsSql(batch.blobs)}),
    new_contents AS (
      INSERT INTO mail_contents (blob_hash, message_id, in_reply_to, references_list, subject, from_name, from_address, to_list, cc_list, reply_to,
        thread_subject, people_key, sent_at, snippet, html, text_body, text_tail, attachments, remote_images, urgent, parse_error)
      SELECT v.blob_hash, v.message_id, v.in_reply_to, v.references_list, v.subject, v.from_name, v.from_address, v.to_list::jsonb, v.cc_list::jsonb, v.reply_to::jsonb,
        v.thread_subject, v.people_key, v.sent_at, v.snippet,
        convert_from(substring(${html.bytes}::bytea FROM v.html_off + 1 FOR v.html_len), 'UTF8'),
        convert_from(substring(${text.bytes}::bytea FROM v.text_off + 1 FOR v.text_len), 'UTF8'), v.text_tail,
        v.attachments::jsonb, v.remote_images, v.urgent, v.parse_error
      FROM unnest(${col('blob_hash')}::text[], ${col('message_id')}::text[], ${col('in_reply_to')}::text[], ${col('references_list')}::text[],
        ${col('subject')}::text[], ${col('from_name')}::text[], ${col('from_address')}::text[], ${col('to_list')}::text[],
        ${col('cc_list')}::text[], ${col('reply_to')}::text[], ${col('thread_subject')}::text[],
        ${col('people_key')}::text[], ${col('sent_at')}::timestamptz[], ${col('snippet')}::text[],
        ${html.offsets}::int[], ${html.lengths}::int[], ${text.offsets}::int[], ${text.lengths}::int[], ${col('text_tail')}::int[],
        ${col('attachments')}::text[], ${col('remote_images')}::bool[], ${col('urgent')}::bool[], ${col('parse_error')}::text[])
        WITH ORDINALITY AS v(blob_hash, message_id, in_reply_to, references_list, subject, from_name, from_address, to_list, cc_list, reply_to,
          thread_subject, people_key, sent_at, snippet, html_off, html_len, text_off, text_len, text_tail, attachments, remote_images, urgent, parse_error, k)
      ORDER BY v.k
      RETURNING id, message_id, in_reply_to, references_list, thread_subject, people_key, sent_at, created_at),
    n AS (SELECT new_contents.*, row_number() OVER (ORDER BY id) AS k FROM new_contents),
    new_search AS (INSERT INTO search_pending (content_id) SELECT id FROM n),
    new_mail AS (${threadedInsertSql(batch.rows)})
    SELECT id FROM new_mail`;
  try {
    const out = await query.execute(db);
    return out.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  } catch (err) {
    if ((err as { code?: string }).code === INACTIVE_MAILBOX_STATE) throw inactiveMailbox();
    throw err;
  }
}
