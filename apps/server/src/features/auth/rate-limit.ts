import { Code } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../errors.js';
import * as repo from './auth.repository.js';

export interface Limit { key: string; max: number }

/**
 * Failed-attempt limits kept in the database, so every node enforces the same
 * count. For passwords and codes only failures count, so a user who types the right
 * one is never slowed; take() counts every request, for limits on sending.
 */
export class FailureLimiter {
  constructor(private readonly db: Db, private readonly windowSeconds: number) {}

  async check(limits: Limit[]): Promise<void> {
    const rows = await repo.failureCounts(this.db, limits.map((l) => l.key), this.windowSeconds);
    let wait = 0;
    for (const row of rows) {
      const limit = limits.find((l) => l.key === row.key);
      if (limit && row.count >= limit.max) wait = Math.max(wait, Math.ceil(Number(row.secondsLeft)));
    }
    if (wait > 0) throw new AppError(Code.TooMany, `Too many failed attempts. Try again in ${wait} seconds.`, { retryAfter: wait });
  }

  async fail(limits: Limit[]): Promise<void> {
    for (const l of limits) await repo.recordFailure(this.db, l.key, this.windowSeconds);
  }

  /** For limits on requests rather than on failures (codes sent, lookups): every call counts. */
  async take(limits: Limit[]): Promise<void> {
    await this.check(limits);
    await this.fail(limits);
  }

  async clear(key: string): Promise<void> {
    await repo.clearFailures(this.db, key);
  }
}
