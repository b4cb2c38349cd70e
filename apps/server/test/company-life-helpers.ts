import type { Db } from '../src/db/connect.js';
import { CompanyLifeService, type CompanyLifeDeps } from '../src/features/company-life/company-life.service.js';
import type { Services } from '../src/services.js';

/** A west customer row as the storefront would create one (its own columns default). */
export async function addCustomer(db: Db, email: string, balanceCents = 0): Promise<number> {
  const row = await db.insertInto('customers').values({ email, password_hash: 'scrypt$not-used', balance_cents: balanceCents }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Another node's company-life worker on the same services, with its own clock (and test hooks). */
export function lifeNode(services: Services, now: () => Date, more: Partial<CompanyLifeDeps> = {}): CompanyLifeService {
  return new CompanyLifeService({
    db: services.db, blobs: services.blobs, mailer: services.mailer, contacts: services.contacts, calendarIcs: services.calendarIcs, messages: services.messages, now, ...more,
  });
}
