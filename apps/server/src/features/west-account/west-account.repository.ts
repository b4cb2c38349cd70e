import { sql } from 'kysely';
import type { WestDb } from './tables.js';

// The only SQL of the customer realm: customers, their sessions, codes, tickets and captcha spends.

export async function findCustomerByEmail(db: WestDb, email: string) {
  return db.selectFrom('customers').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findCustomer(db: WestDb, id: number) {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Null when the address is taken (a concurrent registration won). */
export async function insertCustomer(db: WestDb, v: { email: string; mobile: string | null; passwordHash: string; now: Date }): Promise<number | null> {
  const row = await db.insertInto('customers').values({ email: v.email, mobile: v.mobile, password_hash: v.passwordHash, agreed_at: v.now })
    .onConflict((oc) => oc.column('email').doNothing()).returning('id').executeTakeFirst();
  return row?.id ?? null;
}

export async function updateCustomer(db: WestDb, id: number, v: { profile?: Record<string, string>; totp_secret?: string | null; totp_pending?: string | null; totp_last_step?: number | null }) {
  const { profile, ...rest } = v;
  await db.updateTable('customers').set({ ...rest, ...(profile ? { profile: JSON.stringify(profile) } : {}) }).where('id', '=', id).execute();
}

/** Accepts a TOTP step once: true when it is newer than the last one used. */
export async function takeTotpStep(db: WestDb, id: number, step: number): Promise<boolean> {
  const r = await db.updateTable('customers').set({ totp_last_step: step }).where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)])).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ---- sessions ----

export async function insertSession(db: WestDb, v: { customerId: number; tokenHash: string; ip: string; userAgent: string; expiresAt: Date }) {
  await db.insertInto('west_sessions').values({ customer_id: v.customerId, token_hash: v.tokenHash, ip: v.ip, user_agent: v.userAgent.slice(0, 300), expires_at: v.expiresAt }).execute();
}

export async function findLiveSession(db: WestDb, tokenHash: string, now: Date) {
  return db.selectFrom('west_sessions').innerJoin('customers', 'customers.id', 'west_sessions.customer_id')
    .select(['west_sessions.id as sessionId', 'customers.id as customerId', 'customers.email'])
    .where('west_sessions.token_hash', '=', tokenHash).where('west_sessions.expires_at', '>', now)
    .where('customers.status', '=', 'active').executeTakeFirst();
}

export async function deleteSession(db: WestDb, sessionId: number) {
  await db.deleteFrom('west_sessions').where('id', '=', sessionId).execute();
}

// ---- codes ----

/**
 * Stores a new code for (address, purpose) unless one was sent less than `resendSeconds`
 * ago; returns the seconds left to wait (0 when stored). One statement, so two requests
 * at once cannot both pass the resend check.
 */
export async function storeCode(db: WestDb, v: { address: string; purpose: 'register' | 'login'; codeHash: string; now: Date; ttlSeconds: number; resendSeconds: number }): Promise<number> {
  const expires = new Date(v.now.getTime() + v.ttlSeconds * 1000);
  const resendBefore = new Date(v.now.getTime() - v.resendSeconds * 1000);
  const row = await db.insertInto('west_codes').values({ address: v.address, purpose: v.purpose, code_hash: v.codeHash, sent_at: v.now, expires_at: expires })
    .onConflict((oc) => oc.columns(['address', 'purpose']).doUpdateSet({ code_hash: v.codeHash, sent_at: v.now, expires_at: expires, attempts: 0 })
      .where('west_codes.sent_at', '<=', resendBefore))
    .returning('address').executeTakeFirst();
  if (row) return 0;
  const cur = await db.selectFrom('west_codes').select('sent_at').where('address', '=', v.address).where('purpose', '=', v.purpose).executeTakeFirst();
  if (!cur) return 0;
  return Math.max(1, Math.ceil((cur.sent_at.getTime() + v.resendSeconds * 1000 - v.now.getTime()) / 1000));
}

export async function dropCode(db: WestDb, address: string, purpose: 'register' | 'login') {
  await db.deleteFrom('west_codes').where('address', '=', address).where('purpose', '=', purpose).execute();
}

/**
 * Spends a code: right and live → deleted, true. Wrong → one attempt counted; at
 * `maxAttempts` the code is dead even if the next guess is right. Row-locked, so
 * concurrent guesses are counted one by one.
 */
export async function spendCode(db: WestDb, v: { address: string; purpose: 'register' | 'login'; codeHash: string; now: Date; maxAttempts: number }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('west_codes').selectAll().where('address', '=', v.address).where('purpose', '=', v.purpose).forUpdate().executeTakeFirst();
    if (!row || row.expires_at <= v.now || row.attempts >= v.maxAttempts) return false;
    if (row.code_hash === v.codeHash) {
      await trx.deleteFrom('west_codes').where('address', '=', v.address).where('purpose', '=', v.purpose).execute();
      return true;
    }
    await trx.updateTable('west_codes').set({ attempts: sql`attempts + 1` }).where('address', '=', v.address).where('purpose', '=', v.purpose).execute();
    return false;
  });
}

// ---- tickets (password proven, second factor pending) ----

export async function insertTicket(db: WestDb, v: { ticketHash: string; customerId: number; way: 'email' | 'totp'; expiresAt: Date }) {
  await db.insertInto('west_tickets').values({ ticket_hash: v.ticketHash, customer_id: v.customerId, way: v.way, expires_at: v.expiresAt }).execute();
}

export async function findTicket(db: WestDb, ticketHash: string, now: Date) {
  return db.selectFrom('west_tickets').selectAll().where('ticket_hash', '=', ticketHash).where('expires_at', '>', now).executeTakeFirst();
}

/** Counts a wrong code on a ticket; returns the attempts so far. */
export async function countTicketMiss(db: WestDb, ticketHash: string): Promise<number> {
  const r = await db.updateTable('west_tickets').set({ attempts: sql`attempts + 1` }).where('ticket_hash', '=', ticketHash).returning('attempts').executeTakeFirst();
  return r?.attempts ?? Number.MAX_SAFE_INTEGER;
}

/** True for the one caller that deletes it: a ticket ends in at most one session. */
export async function spendTicket(db: WestDb, ticketHash: string): Promise<boolean> {
  const r = await db.deleteFrom('west_tickets').where('ticket_hash', '=', ticketHash).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

// ---- captcha ----

/** True the first time a solved challenge is used. */
export async function spendCaptcha(db: WestDb, signature: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db.deleteFrom('west_captcha_spent').where('expires_at', '<', now).execute();
  const r = await db.insertInto('west_captcha_spent').values({ signature, expires_at: expiresAt }).onConflict((oc) => oc.column('signature').doNothing()).returning('signature').executeTakeFirst();
  return r !== undefined;
}

/** The domain the storefront's mail speaks for when none is configured: the first hosted one (the operator's own). */
export async function firstHostedDomain(db: WestDb): Promise<string | null> {
  const r = await db.selectFrom('domains').select('name').orderBy('id').limit(1).executeTakeFirst();
  return r?.name ?? null;
}
