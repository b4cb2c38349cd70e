import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

export interface SearchFilter { tsquery: string; mid?: number; since?: Date; until?: Date; attach?: boolean; unread?: boolean }

const COUNT_CAP = 1000;

function matches(db: Db, userId: number, f: SearchFilter) {
  let q = db.selectFrom('messages as m').innerJoin('mail_contents as c', 'c.id', 'm.content_id')
    .where('m.user_id', '=', userId).where(sql<boolean>`c.search @@ ${f.tsquery}::tsquery`);
  if (f.mid !== undefined) q = q.where('m.folder_mid', '=', f.mid);
  if (f.since) q = q.where('m.received_at', '>=', f.since);
  if (f.until) q = q.where('m.received_at', '<', f.until);
  if (f.attach) q = q.where('m.has_attach', '=', true);
  if (f.unread) q = q.where('m.seen', '=', false);
  return q;
}

/**
 * One page of matches, newest first. PostgreSQL picks the plan: the GIN index on
 * the tokens for a rare word, or walking the mailbox newest-first for a common one.
 */
export async function searchPage(db: Db, userId: number, f: SearchFilter, limit: number, offset: number) {
  return matches(db, userId, f)
    .select([
      'm.id', 'm.folder_mid', 'm.size', 'm.received_at', 'm.seen', 'm.star', 'm.urgent', 'm.answered', 'm.forwarded', 'm.has_attach',
      'm.delivery_state', 'm.send_at', 'c.subject', 'c.from_name', 'c.from_address', 'c.to_list', 'c.snippet', 'c.sent_at',
    ])
    .select(sql<string>`left(c.text_body, 20000)`.as('text_head'))
    .select(sql<string[]>`array(SELECT t.name FROM message_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.message_id = m.id ORDER BY t.name)`.as('tags'))
    .orderBy('m.received_at', 'desc').orderBy('m.id', 'desc').limit(limit).offset(offset).execute();
}

/** How many match, counting no further than the cap (a common word can match most of a mailbox). */
export async function countMatches(db: Db, userId: number, f: SearchFilter): Promise<{ total: number; more: boolean }> {
  const capped = matches(db, userId, f).select(sql`1`.as('x')).limit(COUNT_CAP + 1);
  const row = await db.selectFrom(capped.as('hits')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const n = Number(row.n);
  return { total: Math.min(n, COUNT_CAP), more: n > COUNT_CAP };
}
