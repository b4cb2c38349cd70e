import { Code } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../errors.js';
import * as repo from './auth.repository.js';

export interface Limit { key: string; max: number }

/** One reserved attempt: a success gives it back, a failure lets it stand. */
export interface Attempt { succeeded(): Promise<void> }

/**
 * Attempt limits kept in the database, so every node enforces the same count.
 *
 * An attempt is reserved before the password or code is verified, and given back
 * when it was right (issue 12, finding 3): checking first and counting the failure
 * after a slow scrypt let 28 concurrent guesses all pass the check. The reservation
 * is one atomic upsert per key, so a burst gets at most `max` tries evaluated.
 * A user who types the right password is still never slowed by their own success.
 */
export class FailureLimiter {
  constructor(private readonly db: Db, private readonly windowSeconds: number) {}

  async reserve(limits: Limit[]): Promise<Attempt> {
    const taken: string[] = [];
    let wait = 0;
    for (const l of limits) {
      const r = await repo.reserveAttempt(this.db, l.key, this.windowSeconds);
      taken.push(l.key);
      if (r.count > l.max) wait = Math.max(wait, Math.ceil(r.secondsLeft));
    }
    const release = async () => {
      for (const key of taken) await repo.releaseAttempt(this.db, key);
    };
    if (wait > 0) {
      // Refused before it was tried: it is not a guess, so it costs no other limit.
      await release();
      throw tooMany(wait);
    }
    return { succeeded: release };
  }

  /**
   * A read-only look, for a cheap early refusal before any work (an unknown ticket
   * from a blocked address). It never replaces reserve(): only a reservation holds
   * under concurrency.
   */
  async check(limits: Limit[]): Promise<void> {
    const rows = await repo.failureCounts(this.db, limits.map((l) => l.key), this.windowSeconds);
    let wait = 0;
    for (const row of rows) {
      const limit = limits.find((l) => l.key === row.key);
      if (limit && row.count >= limit.max) wait = Math.max(wait, Math.ceil(Number(row.secondsLeft)));
    }
    if (wait > 0) throw tooMany(wait);
  }

  /** For limits on requests rather than on failures (codes sent, lookups): every call counts. */
  async take(limits: Limit[]): Promise<void> {
    await this.reserve(limits);
  }

  async clear(key: string): Promise<void> {
    await repo.clearFailures(this.db, key);
  }
}

const tooMany = (wait: number) =>
  new AppError(Code.TooMany, `Too many failed attempts. Try again in ${wait} seconds.`, { retryAfter: wait, reason: 'rate.limited' });
