import type { Db } from '../src/db/connect.js';

/** A west customer row as the storefront would create one (its own columns default). */
export async function addCustomer(db: Db, email: string, balanceCents = 0): Promise<number> {
  const row = await db.insertInto('customers').values({ email, password_hash: 'scrypt$not-used', balance_cents: balanceCents }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}
