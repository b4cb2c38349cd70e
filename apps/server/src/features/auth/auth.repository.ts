import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { preparedStatement } from '../../db/prepared.js';

export async function insertSession(db: Db, v: { userId: number; tokenHash: string; ip: string; userAgent: string; expiresAt: Date }): Promise<void> {
  await db.insertInto('sessions').values({ user_id: v.userId, token_hash: v.tokenHash, ip: v.ip, user_agent: v.userAgent.slice(0, 300), expires_at: v.expiresAt }).execute();
}

/** Asked on every signed-in request, so it is a prepared statement, compiled once (issue 13: its planning, and then its building, cost more than its work). */
const liveSession = preparedStatement('live_session', (db, tokenHash: string) => db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id')
  .innerJoin('companies', 'companies.id', 'users.company_id')
  .select(['sessions.id as sessionId', 'sessions.last_seen_at as lastSeenAt', 'sessions.expires_at as expiresAt', 'users.id as userId', 'users.email', 'users.company_id as companyId', 'users.role'])
  .where('sessions.token_hash', '=', tokenHash)
  .where('sessions.expires_at', '>', sql<Date>`now()`)
  .where('users.status', '=', 'active')
  // A suspended company's sessions stop working (company-life/expiry.service.ts).
  .where('companies.status', '<>', 'suspended'));

export async function findLiveSession(db: Db, tokenHash: string) {
  const [row] = await liveSession(db, tokenHash);
  return row;
}

export async function touchSession(db: Db, sessionId: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: sql`now()` }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: Db, sessionId: number): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/**
 * Counts one attempt on a key and returns the new count, in one statement: the row
 * lock of the upsert orders concurrent attempts, so each sees a distinct count.
 */
/** Attempts counted inside the current window for each key. */
export async function failureCounts(db: Db, keys: string[], windowSeconds: number) {
  return db.selectFrom('auth_failures')
    .select(['key', 'count', sql<number>`extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now()))`.as('secondsLeft')])
    .where('key', 'in', keys)
    .where('window_start', '>', sql<Date>`now() - make_interval(secs => ${windowSeconds})`)
    .execute();
}

export async function reserveAttempt(db: Db, key: string, windowSeconds: number): Promise<{ count: number; secondsLeft: number }> {
  const expired = sql<boolean>`auth_failures.window_start <= now() - make_interval(secs => ${windowSeconds})`;
  const row = await db.insertInto('auth_failures').values({ key, count: 1, window_start: sql`now()` })
    .onConflict((oc) => oc.column('key').doUpdateSet({
      count: sql`CASE WHEN ${expired} THEN 1 ELSE auth_failures.count + 1 END`,
      window_start: sql`CASE WHEN ${expired} THEN now() ELSE auth_failures.window_start END`,
    }))
    .returning(['count', sql<number>`extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now()))`.as('secondsLeft')])
    .executeTakeFirstOrThrow();
  return { count: row.count, secondsLeft: Number(row.secondsLeft) };
}

/** Gives back one reserved attempt (it succeeded, or was refused before it was tried). */
export async function releaseAttempt(db: Db, key: string): Promise<void> {
  await db.updateTable('auth_failures').set({ count: sql`greatest(count - 1, 0)` }).where('key', '=', key).execute();
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('auth_failures').where('key', '=', key).execute();
}
