import { TtlCache } from '../../cache/ttl-cache.js';
import type { Db } from '../../db/connect.js';
import { resolveLocal, type LocalTarget } from './account.repository.js';

const TTL_MS = 2_000;

/**
 * SMTP's RCPT lookup (resolveLocal) kept for 2 s by one SMTP connection, for an address that
 * reaches one mailbox directly (a user or an alias): a sending server that delivers a queue
 * of mail to one mailbox over one connection asks the database once per 2 s, not on every
 * RCPT (issue 13, CPU per delivered mail). Only such answers are kept. An unknown address is
 * asked every time, so a new mailbox is never refused with a 550 from memory, and groups
 * are asked every time too. A new connection always asks afresh.
 *
 * A kept answer can be up to 2 s stale. A mailbox disabled or deleted meanwhile (by any
 * process) still gets nothing: the insert files SMTP mail only for a user still active
 * (conversation.repository threadedInsertSql, `active_only`) and otherwise fails the mail with
 * 450 4.2.1, so the sender retries and its next RCPT is answered from the database. A
 * mailbox that became full, or a company suspended, within those 2 s may still take that
 * connection's mail, as it could before when the change landed between RCPT and commit.
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
