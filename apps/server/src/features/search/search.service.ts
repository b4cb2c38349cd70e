import { highlightTerms, queryTokens, type SearchQuery, type SearchResult } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import type { MailboxService } from '../mailbox/mailbox.service.js';
import { toSummary } from '../message/message.service.js';
import type { SearchIndexer } from './search-indexer.js';
import * as repo from './search.repository.js';

/** A tsquery in PostgreSQL's input syntax: every token must match, some as prefixes. Tokens never hold quotes or backslashes. */
export function toTsquery(q: string): string | null {
  const tokens = queryTokens(q).filter((t) => !/['\\]/.test(t.token));
  if (tokens.length === 0) return null;
  return tokens.map((t) => `'${t.token}'${t.prefix ? ':*' : ''}`).join(' & ');
}

/** The body text around the first place a query word occurs, for a result whose match is in the body. */
export function excerpt(text: string, terms: string[], fallback: string): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.indexOf(t);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  if (at < 0) return fallback;
  const start = Math.max(0, at - 40);
  const piece = text.slice(start, at + 120).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${piece}`;
}

export class SearchService {
  constructor(private readonly db: Db, private readonly mailbox: MailboxService, private readonly indexer: SearchIndexer) {}

  async search(userId: number, q: SearchQuery): Promise<SearchResult> {
    const tsquery = toTsquery(q.q);
    const empty = { list: [], total: 0, page: q.page, size: q.size, more: false };
    if (!tsquery) return empty;
    const mid = q.mid === undefined ? undefined : (await this.mailbox.requireFolder(userId, q.mid)).mid;
    const f: repo.SearchFilter = {
      tsquery, mid, attach: q.attach, unread: q.unread,
      since: q.since !== undefined ? new Date(q.since * 1000) : undefined, until: q.until !== undefined ? new Date(q.until * 1000) : undefined,
    };
    // Mail of this user's that waits for the indexer (a pause's worth, usually none) is indexed now, so it is found.
    await this.indexer.catchUp(userId);
    // The count (cheap, from the index) decides how the page is found.
    const count = await repo.countMatches(this.db, userId, f);
    const rows = count.total === 0 ? [] : await repo.searchPage(this.db, userId, f, q.size, (q.page - 1) * q.size, count.more);
    const terms = highlightTerms(q.q);
    return {
      list: rows.map((r) => ({ ...toSummary(r, r.tags), snippet: excerpt(r.text_head, terms, r.snippet) })),
      total: count.total, more: count.more, page: q.page, size: q.size,
    };
  }
}
