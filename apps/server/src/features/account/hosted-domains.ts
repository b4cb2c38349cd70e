import type { Db } from '../../db/connect.js';
import { TtlCache } from '../../cache/ttl-cache.js';
import { isHostedDomain } from './account.repository.js';

const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

/**
 * "Is this one of our domains?" for the SMTP hot path, where every message asked it
 * twice (envelope and header From) and each RCPT of a stranger once more (issue 13).
 * Answers are kept per process for 10 s: a domain added in the admin console is
 * recognised within that, and nothing here decides where mail is stored (recipients
 * are always looked up fresh). Admin and account pages ask the repository directly.
 */
export class HostedDomains {
  private readonly cache: TtlCache<string, boolean>;

  constructor(private readonly db: Db, now: () => number = Date.now) {
    this.cache = new TtlCache(TTL_MS, MAX_ENTRIES, now);
  }

  has(domain: string): Promise<boolean> {
    const key = domain.toLowerCase();
    return this.cache.get(key, () => isHostedDomain(this.db, key));
  }
}
