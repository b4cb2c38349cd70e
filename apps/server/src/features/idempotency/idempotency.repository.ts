import type { Db } from '../../db/connect.js';
import { withIdempotencyTables } from './tables.js';

export interface KeyRow {
  route: string;
  request_hash: string;
  state: 'pending' | 'done';
  response: string | null;
  created_at: Date;
}

/**
 * Claims (user, key) for a request. One INSERT … ON CONFLICT DO NOTHING: of two requests
 * racing with the same key exactly one inserts, on PGlite and PostgreSQL alike.
 */
export async function claim(db: Db, row: { userId: number; key: string; route: string; hash: string; now: Date; expires: Date }): Promise<boolean> {
  const inserted = await withIdempotencyTables(db).insertInto('idempotency_keys')
    .values({ user_id: row.userId, key: row.key, route: row.route, request_hash: row.hash, state: 'pending', created_at: row.now, expires_at: row.expires })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function find(db: Db, userId: number, key: string): Promise<KeyRow | undefined> {
  return withIdempotencyTables(db).selectFrom('idempotency_keys')
    .select(['route', 'request_hash', 'state', 'response', 'created_at'])
    .where('user_id', '=', userId).where('key', '=', key)
    .executeTakeFirst();
}

/**
 * Takes over a pending claim whose request died (a crash, a dropped socket before onSend).
 * Only one taker wins: the UPDATE matches the old created_at.
 */
export async function takeOver(db: Db, userId: number, key: string, staleBefore: Date, now: Date, expires: Date): Promise<boolean> {
  const r = await withIdempotencyTables(db).updateTable('idempotency_keys')
    .set({ created_at: now, expires_at: expires })
    .where('user_id', '=', userId).where('key', '=', key).where('state', '=', 'pending').where('created_at', '<', staleBefore)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Stores the answer of the claim made at `claimedAt`. Returns false when the claim is no
 * longer ours (taken over as stale, or released), so a caller inside a transaction can roll
 * back rather than commit a second run of the same key.
 */
export async function finish(db: Db, userId: number, key: string, claimedAt: Date, response: string): Promise<boolean> {
  const r = await withIdempotencyTables(db).updateTable('idempotency_keys').set({ state: 'done', response })
    .where('user_id', '=', userId).where('key', '=', key).where('state', '=', 'pending').where('created_at', '=', claimedAt)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * A refused or failed first request changed nothing (DESIGN.md, bad input): the key is free
 * again. Only our own claim: one taken over meanwhile belongs to the request now running.
 */
export async function release(db: Db, userId: number, key: string, claimedAt: Date): Promise<void> {
  await withIdempotencyTables(db).deleteFrom('idempotency_keys')
    .where('user_id', '=', userId).where('key', '=', key).where('state', '=', 'pending').where('created_at', '=', claimedAt)
    .execute();
}

/** Removes keys past their expiry; returns how many. */
export async function sweep(db: Db, now: Date): Promise<number> {
  const r = await withIdempotencyTables(db).deleteFrom('idempotency_keys').where('expires_at', '<', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
