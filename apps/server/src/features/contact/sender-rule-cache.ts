import { TtlCache } from '../../cache/ttl-cache.js';
import type { Db } from '../../db/connect.js';
import * as repo from './contact.repository.js';

type Kind = 'block' | 'allow';
/** Beyond this many rules a mailbox's list is not held in memory; its deliveries ask the database. */
const MAX_CACHED_RULES = 1_000;
const TTL_MS = 5_000;

/**
 * The personal block/allow lists as delivery reads them: each mailbox's whole list kept per
 * process for 5 s, instead of a query on every message (issue 13). A change made through
 * this process applies at once; one made through another process within 5 s.
 */
export class SenderRuleCache {
  private readonly lists: TtlCache<number, Map<string, Kind[]> | null>;

  constructor(private readonly db: Db, now: () => number = Date.now) {
    this.lists = new TtlCache(TTL_MS, 10_000, now);
  }

  /** The rules of these mailboxes that name any of these senders' addresses or domains (repo.rulesFor's answer). */
  async matching(userIds: number[], senders: string[]): Promise<{ user_id: number; kind: Kind }[]> {
    const patterns = repo.senderPatterns(senders);
    if (userIds.length === 0 || patterns.length === 0) return [];
    const out: { user_id: number; kind: Kind }[] = [];
    const uncached: number[] = [];
    for (const userId of new Set(userIds)) {
      const list = await this.lists.get(userId, () => this.load(userId));
      if (!list) uncached.push(userId);
      else for (const p of patterns) for (const kind of list.get(p) ?? []) out.push({ user_id: userId, kind });
    }
    if (uncached.length > 0) out.push(...await repo.rulesFor(this.db, uncached, senders));
    return out;
  }

  changed(userId: number): void {
    this.lists.delete(userId);
  }

  private async load(userId: number): Promise<Map<string, Kind[]> | null> {
    const rows = await repo.listRules(this.db, userId, MAX_CACHED_RULES + 1);
    if (rows.length > MAX_CACHED_RULES) return null;
    const map = new Map<string, Kind[]>();
    for (const r of rows) map.set(r.pattern, [...(map.get(r.pattern) ?? []), r.kind]);
    return map;
  }
}
