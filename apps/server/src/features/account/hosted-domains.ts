import type { Db } from '../../db/connect.js';
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
  private readonly cache = new Map<string, { hosted: boolean; until: number }>();

  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  async has(domain: string): Promise<boolean> {
    const key = domain.toLowerCase();
    const hit = this.cache.get(key);
    if (hit && hit.until > this.now()) return hit.hosted;
    const hosted = await isHostedDomain(this.db, key);
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { hosted, until: this.now() + TTL_MS });
    return hosted;
  }
}
