import type { Db } from '../../db/connect.js';

/**
 * A key the whole installation shares (the VAPID pair, the reset decoy secret), made
 * on first use. Every node offers its own fresh candidate and the first insert wins
 * (ON CONFLICT DO NOTHING); all then read the one stored, so nodes starting at once agree.
 */
export async function ensureAppKey<T>(db: Db, name: string, candidate: T): Promise<T> {
  await db.insertInto('app_keys').values({ name, value: JSON.stringify(candidate) }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await db.selectFrom('app_keys').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value as T;
}
