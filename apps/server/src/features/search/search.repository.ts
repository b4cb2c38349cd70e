import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { contentText } from '../message/message.repository.js';
import { TOKENISED_TEXT, type TokenSource } from './content-tokens.js';

export interface SearchFilter { tsquery: string; mid?: number; since?: Date; until?: Date; attach?: boolean; unread?: boolean }

const COUNT_CAP = 1000;

type Mode = 'walk' | 'index';

/**
 * The matching rows. `index` drives from the GIN index (the CTE is scanned lazily,
 * so a LIMIT above it stops early); `walk` leaves the plan to PostgreSQL, which walks
 * the mailbox newest-first and stops after a page, the right plan for a common word.
 * The planner cannot tell which a word needs (it guesses 0.5% for any word outside
 * its statistics), so searchPage picks from the count.
 */
function matches(db: Db, userId: number, f: SearchFilter, mode: Mode) {
  // Only indexed mail: the search service has the owner's waiting mail indexed first.
  const base = mode === 'index'
    ? db.with((cte) => cte('hits').materialized(), (w) => w.selectFrom('mail_search').select('content_id as id').where(sql<boolean>`search @@ ${f.tsquery}::tsquery`))
      .selectFrom('hits').innerJoin('messages as m', 'm.content_id', 'hits.id').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
    : db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
      .where(sql<boolean>`EXISTS (SELECT 1 FROM mail_search s WHERE s.content_id = c.id AND s.search @@ ${f.tsquery}::tsquery)`);
  let q = base.where('m.user_id', '=', userId);
  if (f.mid !== undefined) q = q.where('m.folder_mid', '=', f.mid);
  if (f.since) q = q.where('m.received_at', '>=', f.since);
  if (f.until) q = q.where('m.received_at', '<', f.until);
  if (f.attach) q = q.where('m.has_attach', '=', true);
  if (f.unread) q = q.where('m.seen', '=', false);
  return q;
}

/**
 * One page of matches, newest first: from the index when the caller has few, by
 * walking the mailbox when many. Only the page's ids are found first; bodies are
 * read for those 20 rows alone, not for every match before the sort.
 */
export async function searchPage(db: Db, userId: number, f: SearchFilter, limit: number, offset: number, many: boolean) {
  const page = matches(db, userId, f, many ? 'walk' : 'index').select('m.id as pid')
    .orderBy('m.received_at', 'desc').orderBy('m.id', 'desc').limit(limit).offset(offset);
  return db.selectFrom(page.as('p')).innerJoin('messages as m', 'm.id', 'p.pid').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
    .select([
      'm.id', 'm.folder_mid', 'm.size', 'm.received_at', 'm.seen', 'm.star', 'm.urgent', 'm.answered', 'm.forwarded', 'm.has_attach',
      'm.delivery_state', 'm.send_at', 'c.subject', 'c.from_name', 'c.from_address', 'c.to_list', 'c.snippet', 'c.sent_at',
    ])
    .select(sql<boolean>`EXISTS (SELECT 1 FROM contacts ct WHERE ct.user_id = m.user_id AND ct.important AND ct.email = c.from_address)`.as('from_important'))
    .select(sql<string>`left(${contentText()}, 20000)`.as('text_head'))
    .select(sql<string[]>`array(SELECT t.name FROM message_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.message_id = m.id ORDER BY t.name)`.as('tags'))
    .orderBy('m.received_at', 'desc').orderBy('m.id', 'desc').execute();
}

/** How many match, from the index, counting no further than the cap (a common word can match most of a mailbox). */
export async function countMatches(db: Db, userId: number, f: SearchFilter): Promise<{ total: number; more: boolean }> {
  const capped = matches(db, userId, f, 'index').select(sql`1`.as('x')).limit(COUNT_CAP + 1);
  const row = await db.selectFrom(capped.as('found')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const n = Number(row.n);
  return { total: Math.min(n, COUNT_CAP), more: n > COUNT_CAP };
}

/** A waiting content, as the tokens are made from it (content-tokens.ts). */
export interface PendingContent extends TokenSource { id: number }

/**
 * Up to `limit` contents that wait for the indexer, oldest first, after the content id `after`;
 * with `userId`, only those of that user's mail. Read without a lock: storeLexemes takes each
 * one only if it still waits.
 */
export async function pendingContents(db: Db, limit: number, opts: { after?: number; userId?: number } = {}): Promise<PendingContent[]> {
  const { after = 0, userId } = opts;
  let q = db.selectFrom('search_pending as p').innerJoin('mail_contents as c', 'c.id', 'p.content_id')
    .select(['p.content_id as id', 'c.subject', 'c.from_name', 'c.from_address', 'c.to_list', 'c.cc_list'])
    // Only what contentTokens reads crosses to the worker.
    .select(sql<string>`left(${contentText()}, ${TOKENISED_TEXT})`.as('text'))
    .select(sql<string[]>`ARRAY(SELECT a->>'name' FROM jsonb_array_elements(c.attachments) a)`.as('names'));
  if (after > 0) q = q.where('p.content_id', '>', after);
  if (userId !== undefined) q = q.where(({ exists, selectFrom }) => exists(selectFrom('messages as m').select(sql`1`.as('x')).whereRef('m.content_id', '=', 'p.content_id').where('m.user_id', '=', userId)));
  const rows = await q.orderBy('p.content_id').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id, subject: r.subject, from: { name: r.from_name, address: r.from_address }, to: r.to_list, cc: r.cc_list, text: r.text,
    attachments: r.names.map((name) => ({ name: name ?? '' })),
  }));
}

/**
 * Writes the lexemes of contents that still wait (`tokens[i]`, one per line, is `ids[i]`'s) and
 * takes them off the queue, in one statement. A content another indexer took meanwhile (the
 * DELETE waits for its commit, then finds nothing) or that was deleted is left alone. Returns
 * how many it indexed.
 */
export async function storeLexemes(db: Db, ids: number[], tokens: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await sql`WITH moved AS (DELETE FROM search_pending WHERE content_id = ANY(${ids}::bigint[]) RETURNING content_id)
    INSERT INTO mail_search (content_id, search)
    SELECT m.content_id, array_to_tsvector(string_to_array(t.tokens, E'\\n'))
    FROM moved m JOIN unnest(${ids}::bigint[], ${tokens}::text[]) AS t(id, tokens) ON t.id = m.content_id
    ON CONFLICT (content_id) DO NOTHING`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** Whether more than `n` mails wait for the indexer (counts no further). */
export async function pendingOver(db: Db, n: number): Promise<boolean> {
  const r = await sql<{ over: boolean }>`SELECT count(*) > ${n} AS over FROM (SELECT 1 FROM search_pending LIMIT ${n + 1}) p`.execute(db);
  return r.rows[0]?.over ?? false;
}
