import { sql } from 'kysely';
import type { Address } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { preparedAs } from '../../db/prepared.js';
import { senderAvatar, tagNames, type SummaryRow } from '../message/message.repository.js';
import { MAX_REFERENCES, SUBJECT_WINDOW_DAYS } from './threader.js';

// Every query here takes the owner's user id: a conversation id alone never reaches a row.

/** Folders whose messages a conversation shows only when opened from them (threader.ts, README "Conversations"). */
export const SEPARATE_FOLDERS = [3, 4];
/** Drafts open in the editor; they are never stacked or counted in a conversation. */
export const DRAFTS = 2;

/**
 * The conversation a new mail row joins (threader.ts gives the rules), as one SQL
 * expression over `q` (the row: user_id), `n` (its mail_contents row) and `rr` (its
 * References as an array); null means it starts one of its own. It is one probe of the
 * Message-ID index for the mail's links and, only when none is found, one of the subject
 * index. It reads the mail rows as they were before the statement it is in.
 *
 * `m.user_id + 0`: each found content's rows are reached by their content id (messages_content)
 * and then filtered to the mailbox. Without it the planner, when its statistics still think a
 * mailbox small (a new or fast-growing one, before autovacuum's next ANALYZE), read the
 * mailbox's every row through messages_conv for each probe: a cost growing with the mailbox
 * (issue 13: 1.21 ms of backend CPU per delivered mail at ~330 mails a mailbox, 0.69 with this).
 * The Message-ID probe is a lateral subquery behind OFFSET 0 for the same reason: one index
 * probe per link. As a join, a plan made while mail_contents looked small hashed the links
 * against every content with a Message-ID, scanned in full for every delivered mail; the
 * filing statement's generic plan kept that for the connection's life (db/prepared.ts).
 *
 * The subject probe takes the newest matching mail by its content's date, the order of the
 * subject index, so it walks the index backwards and stops at the first content the mailbox
 * has a row for. Ordered by the rows' arrival, it joined and sorted every mail of the thread
 * in the window, and each delivery into a long thread cost more than the last (issue 13: one
 * thread, one mailbox, filing a batch of 8 went from 32 to 67 ms on PGlite over ~2,500 mails;
 * now 7–8 ms throughout). The two orders differ only for a mail whose Date header is far from
 * its arrival, and then among mails of the same subject and people in the same week.
 */
const threadLookup = sql<number | null>`coalesce(
      (SELECT m.conv_id FROM (
          SELECT n.message_id AS mid, 0 AS pos
          UNION ALL SELECT n.in_reply_to, 1
          UNION ALL SELECT r.mid, 2 + cardinality(rr.refs) - r.ord FROM unnest(rr.refs) WITH ORDINALITY AS r(mid, ord)
            WHERE r.ord > cardinality(rr.refs) - ${MAX_REFERENCES}
        ) l
        CROSS JOIN LATERAL (SELECT c.id FROM mail_contents c WHERE c.message_id = l.mid AND c.message_id <> '' OFFSET 0) c
        JOIN messages m ON m.content_id = c.id AND m.user_id + 0 = q.user_id
        ORDER BY l.pos, m.id DESC LIMIT 1),
      (SELECT m.conv_id FROM mail_contents c JOIN messages m ON m.content_id = c.id AND m.user_id + 0 = q.user_id
        WHERE n.thread_subject <> '' AND c.thread_subject <> '' AND c.thread_subject = n.thread_subject AND c.people_key = n.people_key
          AND coalesce(c.sent_at, c.created_at) BETWEEN coalesce(n.sent_at, n.created_at) - make_interval(days => ${SUBJECT_WINDOW_DAYS})
                                                    AND coalesce(n.sent_at, n.created_at) + make_interval(days => ${SUBJECT_WINDOW_DAYS})
        ORDER BY coalesce(c.sent_at, c.created_at) DESC, c.id DESC, m.id DESC LIMIT 1)
    )`;
const referencesOfN = sql`CROSS JOIN LATERAL (SELECT coalesce(string_to_array(nullif(btrim(regexp_replace(n.references_list, '\\s+', ' ', 'g')), ''), ' '), '{}') AS refs) rr`;

/**
 * The conversation each new mail row joins, for every (content, mailbox) pair, in one
 * round trip per batch. Runs after the content rows are written and before the mail rows:
 * null means the row starts a conversation of its own (the column's default numbers it).
 */
export async function conversationsFor(db: Db, pairs: { contentId: number; userId: number }[]): Promise<(number | null)[]> {
  if (pairs.length === 0) return [];
  const rows = await sql<{ i: number; conv_id: number | null }>`
    SELECT q.i, ${threadLookup} AS conv_id
    FROM unnest(${pairs.map((_, i) => i)}::int[], ${pairs.map((p) => p.contentId)}::bigint[], ${pairs.map((p) => p.userId)}::bigint[]) AS q(i, content_id, user_id)
    JOIN mail_contents n ON n.id = q.content_id
    ${referencesOfN}
  `.execute(db);
  const out: (number | null)[] = pairs.map(() => null);
  for (const r of rows.rows) out[Number(r.i)] = r.conv_id === null ? null : Number(r.conv_id);
  return out;
}

/** A delivered mail's row, before it is threaded: `content` is its content's position (from 1) among the statement's new contents (filing.repository.ts). */
export interface DeliveredRow {
  user_id: number; folder_mid: number; content: number; blob_hash: string; size: number; received_at: Date;
  seen: boolean; star: boolean; urgent: boolean; has_attach: boolean; delivery_state: string | null; bcc: string; auth_results: string | null;
  /** Only into a mailbox whose user is still active; the whole statement fails (a 4xx over SMTP) when one is not. */
  active_only?: boolean;
}

/** A row that had to go to an active mailbox found its user disabled or gone: the sender should try again (RCPT then says why). */
export const inactiveMailbox = (): Error => Object.assign(new Error('4.2.1 A recipient mailbox is not available now, try again later'), { responseCode: 450 });
/** The SQLSTATE of `mw_inactive_mailbox()` (migration 033). */
export const INACTIVE_MAILBOX_STATE = 'MW450';

/**
 * The INSERT of delivered mail rows, each in the conversation `conversationsFor` would give
 * it, as a part of the statement that files a batch: it reads the batch's new contents from
 * `n` (with `k`, their position). Like there, the lookup sees the mail rows from before the
 * statement, so mails of one batch do not thread with each other. A row for a mailbox no
 * longer active fails the whole statement (`mw_inactive_mailbox`). New ids sorted are in the
 * order of `rows`: identity values are drawn in the order rows are inserted (ORDER BY q.i).
 */
export function threadedInsertSql(rows: DeliveredRow[]) {
  const col = <K extends keyof DeliveredRow>(k: K) => rows.map((r) => r[k]);
  return sql`INSERT INTO messages (user_id, folder_mid, content_id, blob_hash, size, received_at, seen, star, urgent, has_attach, delivery_state, bcc, auth_results, conv_id)
    SELECT CASE WHEN NOT q.active_only OR EXISTS (SELECT 1 FROM users u WHERE u.id = q.user_id AND u.status = 'active') THEN q.user_id ELSE mw_inactive_mailbox(q.user_id) END,
      q.folder_mid, n.id, q.blob_hash, q.size, q.received_at, q.seen, q.star, q.urgent, q.has_attach, q.delivery_state,
      q.bcc::jsonb, q.auth_results::jsonb, coalesce(${threadLookup}, nextval('conversation_seq'))
    FROM unnest(${col('user_id')}::bigint[], ${col('folder_mid')}::int[], ${col('content')}::int[], ${col('blob_hash')}::text[], ${col('size')}::int[],
      ${col('received_at')}::timestamptz[], ${col('seen')}::bool[], ${col('star')}::bool[], ${col('urgent')}::bool[], ${col('has_attach')}::bool[],
      ${col('delivery_state')}::text[], ${col('bcc')}::text[], ${col('auth_results')}::text[], ${rows.map((r) => r.active_only ?? false)}::bool[])
      WITH ORDINALITY AS q(user_id, folder_mid, content, blob_hash, size, received_at, seen, star, urgent, has_attach, delivery_state, bcc, auth_results, active_only, i)
    JOIN n ON n.k = q.content
    ${referencesOfN}
    ORDER BY q.i
    RETURNING id`;
}

/** A list row: its newest mail in the folder, as the mail list has it, and the conversation's facts. */
export interface ConversationRow extends SummaryRow {
  conv_id: number; conv_count: number; conv_unread: number; conv_star: boolean; participants: Address[];
}

/**
 * One page of a folder's conversations, newest first, with the folder's counters, in one
 * round trip. A conversation is in a folder when any of its mail is; it is placed and shown
 * by its newest mail there. Its count is all its mail outside Drafts, Spam and Deleted (in
 * those two, the mail there). Null when the folder is not the user's.
 *
 * The list the web client asks for, so a prepared statement on a generic plan (issue 13: it
 * took longer to plan than to run). The page's conversations come from
 * mw_folder_conversations (migration 034), planned with their values; everything else is
 * a lookup per conversation on the page.
 */
export async function conversationPage(db: Db, userId: number, folderMid: number, limit: number, offset: number, auto = false) {
  const separate = SEPARATE_FOLDERS.includes(folderMid);
  const rows = await sql<ConversationRow & { folder_total: number; folder_unread: number; folder_convs: number; on: boolean }>`${preparedAs('conversation_page')}
    SELECT f.total AS folder_total, f.unread AS folder_unread, f.convs AS folder_convs, s.on, r.* FROM folders f
    CROSS JOIN LATERAL (SELECT ${auto ? sql`coalesce((SELECT conversation_view FROM user_settings WHERE user_id = ${userId}), true)` : sql`true`} AS on) s
    LEFT JOIN LATERAL (
      SELECT m.id, m.folder_mid, m.size, m.received_at, m.seen, m.star, m.urgent, m.answered, m.forwarded, m.has_attach, m.delivery_state, m.send_at,
        c.subject, c.from_name, c.from_address, c.to_list, c.snippet, c.sent_at, p.conv_id, p.unread AS conv_unread, p.last_at,
        EXISTS (SELECT 1 FROM contacts ct WHERE ct.user_id = m.user_id AND ct.important AND ct.email = c.from_address) AS from_important,
        ${senderAvatar(userId)} AS from_avatar,
        ${tagNames} AS tags,
        ${separate ? sql`p.n` : sql`(SELECT coalesce(sum(x.n), 0)::int FROM conversation_folders x WHERE x.user_id = p.user_id AND x.conv_id = p.conv_id
          AND x.folder_mid NOT IN (${sql.join([DRAFTS, ...SEPARATE_FOLDERS])}))`} AS conv_count,
        EXISTS (SELECT 1 FROM messages s WHERE s.user_id = p.user_id AND s.conv_id = p.conv_id AND s.star) AS conv_star,
        (SELECT coalesce(json_agg(json_build_object('name', w.name, 'address', w.address) ORDER BY w.first), '[]') FROM (
          SELECT c2.from_address AS address, (array_agg(c2.from_name ORDER BY m2.received_at DESC))[1] AS name, min(m2.received_at) AS first
          FROM (SELECT content_id, received_at FROM messages WHERE user_id = p.user_id AND conv_id = p.conv_id ORDER BY received_at DESC, id DESC LIMIT 30) m2
          JOIN mail_contents c2 ON c2.id = m2.content_id GROUP BY c2.from_address ORDER BY min(m2.received_at) LIMIT 5) w) AS participants
      FROM mw_folder_conversations(${userId}, ${folderMid}, ${limit}, ${offset}) p
      JOIN messages m ON m.id = p.last_id JOIN mail_contents c ON c.id = m.content_id
      WHERE s.on
    ) r ON true
    WHERE f.user_id = ${userId} AND f.mid = ${folderMid}
    ORDER BY r.last_at DESC, r.id DESC`.execute(db);
  if (rows.rows.length === 0) return null;
  const head = rows.rows[0]!;
  return {
    on: Boolean(head.on), total: Number(head.folder_convs), unread: Number(head.folder_unread),
    rows: rows.rows.filter((r) => r.id !== null).map((r) => ({ ...r, id: Number(r.id), conv_id: Number(r.conv_id), conv_count: Number(r.conv_count) })),
  };
}

/** The conversation and folder of one of the user's mails. */
export async function conversationOf(db: Db, userId: number, mailId: number) {
  return db.selectFrom('messages').select(['conv_id', 'folder_mid']).where('user_id', '=', userId).where('id', '=', mailId).executeTakeFirst();
}

/**
 * The mails a conversation shows, oldest first (the newest `limit`): all outside Drafts,
 * Spam and Deleted; opened from Spam or Deleted, the ones there. `include` is always in.
 */
export async function conversationMails(db: Db, userId: number, convId: number, openedIn: number, include: number, limit = 100) {
  const separate = SEPARATE_FOLDERS.includes(openedIn);
  const rows = await db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
    .select(['m.id', 'm.folder_mid', 'm.size', 'm.received_at', 'm.seen', 'm.star', 'm.urgent', 'm.answered', 'm.forwarded', 'm.has_attach',
      'm.delivery_state', 'm.send_at', 'c.subject', 'c.from_name', 'c.from_address', 'c.to_list', 'c.cc_list', 'c.snippet', 'c.sent_at'])
    .select(sql<string[]>`array(SELECT t.name FROM message_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.message_id = m.id ORDER BY t.name)`.as('tags'))
    .where('m.user_id', '=', userId).where('m.conv_id', '=', convId)
    .where((eb) => eb.or([
      eb('m.id', '=', include),
      separate ? eb('m.folder_mid', '=', openedIn) : eb('m.folder_mid', 'not in', [DRAFTS, ...SEPARATE_FOLDERS]),
    ]))
    .orderBy('m.received_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
  return rows.reverse();
}

/** Locks every mail of the user's conversations (for the conversation actions); Drafts are left out. */
export async function lockConversations(db: Db, userId: number, convIds: number[]) {
  return db.selectFrom('messages').select(['id', 'conv_id', 'folder_mid', 'blob_hash', 'content_id', 'size'])
    .where('user_id', '=', userId).where('conv_id', 'in', convIds).where('folder_mid', '<>', DRAFTS)
    .orderBy('id').forUpdate().execute();
}

export async function conversationViewOf(db: Db, userId: number): Promise<boolean> {
  const row = await db.selectFrom('user_settings').select('conversation_view').where('user_id', '=', userId).executeTakeFirst();
  return row?.conversation_view ?? true;
}
