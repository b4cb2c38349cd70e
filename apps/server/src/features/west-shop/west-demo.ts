import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { hashPassword } from '../account/password.js';
import { withWestTables, type WestTables } from '../west-account/tables.js';
import * as pay from '../west-pay/west-pay.repository.js';
import * as repo from './west-shop.repository.js';

export const WEST_DEMO_EMAIL = 'admin@demo.test';
export const WEST_DEMO_PASSWORD = 'demo1234';
export const WEST_DEMO_BALANCE_CENTS = 100_000;

/**
 * Demo mode (issue 19): one storefront customer with ¥1,000 and one plan. The customer's
 * address is the demo admin's mailbox, so its login code can be read in the mail client:
 * same address, separate accounts (DESIGN.md "Realms").
 */
export async function seedWestDemo(db: Db, log?: Logger): Promise<void> {
  const w = withWestTables(db);
  await repo.insertPlan(w, { code: 'standard', nameZh: '标准版', nameEn: 'Standard', seatYearCents: 6_000 });
  const c = await w.insertInto('customers').values({ email: WEST_DEMO_EMAIL, password_hash: await hashPassword(WEST_DEMO_PASSWORD), agreed_at: new Date() })
    .onConflict((oc) => oc.column('email').doNothing()).returning('id').executeTakeFirst();
  if (!c) return;
  await db.transaction().execute(async (base) => {
    await pay.post(base.withTables<WestTables>(), { customerId: c.id, amountCents: WEST_DEMO_BALANCE_CENTS, kind: 'adjust', ref: 'demo:opening-balance' });
  });
  log?.debug({ customer: WEST_DEMO_EMAIL }, 'seeded the demo storefront customer');
}
