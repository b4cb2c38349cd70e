import { TtlCache } from '../../cache/ttl-cache.js';
import type { Db } from '../../db/connect.js';
import { resolveLocal, type LocalTarget } from './account.repository.js';

const TTL_MS = 2_000;

/**
 * SMTP's RCPT lookup (resolveLocal) kept per process for 2 s, for an address that reaches
 * one mailbox directly (a user or an alias): a sender's burst of mail to one mailbox asks
 * the database once, not on every RCPT (issue 13, CPU per delivered mail). Only such
 * answers are kept. An unknown address is asked every time, so a new mailbox is never
 * refused with a 550 from memory, and groups are asked every time too.
 *
 * A cached answer can be up to 2 s stale: what keeps that from filing mail into a mailbox
 * disabled or deleted meanwhile (in this process or another) is the insert itself, which
 * files SMTP mail only for a user still active (conversation.repository insertThreaded,
 * `activeOnly`) and otherwise fails the mail with a 4xx, so the sender retries and the
 * next RCPT is answered from the database.
 */
export class RecipientCache {
  private readonly answers: TtlCache<string, LocalTarget[]>;

  constructor(private readonly db: Db, now: () => number = Date.now) {
    this.answers = new TtlCache(TTL_MS, 10_000, now);
  }

  async resolve(address: string): Promise<LocalTarget[]> {
    const key = address.toLowerCase();
    const found = await this.answers.get(key, () => resolveLocal(this.db, key));
    if (!(found.length === 1 && found[0]!.via === 'direct')) this.answers.delete(key);
    return found;
  }
}
