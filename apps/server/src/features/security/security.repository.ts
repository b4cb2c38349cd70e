import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

// Second verification, codes, tickets, recovery codes and devices. Every query is
// scoped by the user id the server resolved, never by one a client supplied alone.

export type TicketPurpose = 'login' | 'bind' | 'reset';
export type CodePurpose = 'login' | 'reset' | 'backup';

export async function securityRow(db: Db, userId: number) {
  return db.selectFrom('users').where('id', '=', userId)
    .select(['id', 'email', 'company_id', 'status', 'password_hash', 'totp_secret', 'totp_pending', 'backup_email', 'security_question', 'security_answer_hash'])
    .executeTakeFirst();
}
export type SecurityRow = NonNullable<Awaited<ReturnType<typeof securityRow>>>;

export async function recoveryLeft(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('recovery_codes').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setTotpPending(db: Db, userId: number, secret: string): Promise<void> {
  await db.updateTable('users').set({ totp_pending: secret }).where('id', '=', userId).execute();
}

/** Moves the pending secret in, only if it is still the one that was checked (a second totp-begin may have replaced it). */
export async function enableTotp(db: Db, userId: number, secret: string, step: number): Promise<boolean> {
  const row = await db.updateTable('users').set({ totp_secret: secret, totp_pending: null, totp_last_step: step })
    .where('id', '=', userId).where('totp_pending', '=', secret).returning('id').executeTakeFirst();
  return row !== undefined;
}

export async function disableTotp(db: Db, userId: number): Promise<void> {
  await db.updateTable('users').set({ totp_secret: null, totp_pending: null, totp_last_step: null }).where('id', '=', userId).execute();
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

/** Records an accepted step; false when this step or a later one was already used (a replay). */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const row = await db.updateTable('users').set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('id').executeTakeFirst();
  return row !== undefined;
}

export async function replaceRecoveryCodes(db: Db, userId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db.insertInto('recovery_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null }))).execute();
}

/** Spends a recovery code; false when it is unknown or already spent. */
export async function useRecoveryCode(db: Db, userId: number, hash: string): Promise<boolean> {
  const row = await db.updateTable('recovery_codes').set({ used_at: sql`now()` })
    .where('user_id', '=', userId).where('code_hash', '=', hash).where('used_at', 'is', null)
    .returning('user_id').executeTakeFirst();
  return row !== undefined;
}

export async function setBackupEmail(db: Db, userId: number, email: string | null): Promise<void> {
  await db.updateTable('users').set({ backup_email: email }).where('id', '=', userId).execute();
}

export async function setSecurityQuestion(db: Db, userId: number, question: string | null, answerHash: string | null): Promise<void> {
  await db.updateTable('users').set({ security_question: question, security_answer_hash: answerHash }).where('id', '=', userId).execute();
}

// ---- tickets ----

export async function insertTicket(db: Db, v: { hash: string; userId: number; purpose: TicketPurpose; sessionId: number | null; ip: string; userAgent: string; ttlSeconds: number }): Promise<void> {
  await db.insertInto('auth_tickets').values({
    ticket_hash: v.hash, user_id: v.userId, purpose: v.purpose, session_id: v.sessionId, ip: v.ip, user_agent: v.userAgent.slice(0, 300),
    expires_at: sql<Date>`now() + make_interval(secs => ${v.ttlSeconds})`,
  }).execute();
}

/**
 * A live ticket of one of the purposes: not expired, issued after the account's last
 * password change, for an active account. `ownerId` is the user whose session asked
 * to bind (for 'bind' tickets).
 */
export async function findTicket(db: Db, hash: string, purposes: TicketPurpose[]) {
  return db.selectFrom('auth_tickets as t').innerJoin('users as u', 'u.id', 't.user_id').leftJoin('sessions as s', 's.id', 't.session_id')
    .select(['t.user_id as userId', 't.purpose', 't.session_id as sessionId', 't.attempts', 't.ip', 't.user_agent as userAgent', 'u.email', 's.user_id as ownerId'])
    .where('t.ticket_hash', '=', hash).where('t.purpose', 'in', purposes)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('t.created_at', '>=', sql<Date>`u.password_changed_at`)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
}
export type TicketRow = NonNullable<Awaited<ReturnType<typeof findTicket>>>;

export async function countTicketFailure(db: Db, hash: string): Promise<number> {
  const row = await db.updateTable('auth_tickets').set({ attempts: sql`attempts + 1` }).where('ticket_hash', '=', hash).returning('attempts').executeTakeFirst();
  return row?.attempts ?? Number.MAX_SAFE_INTEGER;
}

/** Spends a ticket: exactly one caller gets true, and only while it has attempts left. */
export async function consumeTicket(db: Db, hash: string, maxAttempts: number): Promise<boolean> {
  const row = await db.deleteFrom('auth_tickets').where('ticket_hash', '=', hash).where('attempts', '<', maxAttempts)
    .where('expires_at', '>', sql<Date>`now()`).returning('user_id').executeTakeFirst();
  return row !== undefined;
}

// ---- e-mail codes ----

/**
 * Stores the one live code of (user, purpose), replacing an older one only when that
 * was sent at least `resendSeconds` ago. Returns 0 when stored, else the seconds to wait.
 */
export async function storeCode(db: Db, v: { userId: number; purpose: CodePurpose; address: string; codeHash: string; ttlSeconds: number; resendSeconds: number }): Promise<number> {
  const stored = await db.insertInto('email_codes').values({
    user_id: v.userId, purpose: v.purpose, address: v.address, code_hash: v.codeHash,
    expires_at: sql<Date>`now() + make_interval(secs => ${v.ttlSeconds})`,
  }).onConflict((oc) => oc.columns(['user_id', 'purpose']).doUpdateSet({
    address: v.address, code_hash: v.codeHash, attempts: 0, sent_at: sql`now()`, expires_at: sql`now() + make_interval(secs => ${v.ttlSeconds})`,
  }).where('email_codes.sent_at', '<=', sql<Date>`now() - make_interval(secs => ${v.resendSeconds})`))
    .returning('user_id').executeTakeFirst();
  if (stored) return 0;
  const row = await db.selectFrom('email_codes')
    .select(sql<number>`extract(epoch from (sent_at + make_interval(secs => ${v.resendSeconds}) - now()))`.as('wait'))
    .where('user_id', '=', v.userId).where('purpose', '=', v.purpose).executeTakeFirst();
  return Math.max(1, Math.ceil(Number(row?.wait ?? 1)));
}

export async function dropCode(db: Db, userId: number, purpose: CodePurpose): Promise<void> {
  await db.deleteFrom('email_codes').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
}

/**
 * Spends the code if it is right, live, sent to `address` (when given) and has
 * attempts left; otherwise counts a wrong attempt against it. Both statements run
 * either way, so a right and a wrong code take about the same time.
 */
export async function spendCode(db: Db, v: { userId: number; purpose: CodePurpose; codeHash: string; maxAttempts: number; address?: string }): Promise<boolean> {
  let q = db.deleteFrom('email_codes').where('user_id', '=', v.userId).where('purpose', '=', v.purpose).where('code_hash', '=', v.codeHash)
    .where('expires_at', '>', sql<Date>`now()`).where('attempts', '<', v.maxAttempts);
  if (v.address !== undefined) q = q.where('address', '=', v.address);
  const spent = await q.returning('user_id').executeTakeFirst();
  await db.updateTable('email_codes').set({ attempts: sql`attempts + 1` }).where('user_id', '=', v.userId).where('purpose', '=', v.purpose).execute();
  return spent !== undefined;
}

// ---- password, sessions, devices ----

/**
 * A new password: bumped password_changed_at, sessions ended (all, or all but one),
 * tickets and codes voided, and bindings into this mailbox removed (a bound mailbox
 * must be bound again with its new password). Call inside a transaction.
 */
export async function changePassword(trx: Db, userId: number, hash: string, keepSessionId: number | null): Promise<void> {
  await trx.updateTable('users').set({ password_hash: hash, password_changed_at: sql`now()` }).where('id', '=', userId).execute();
  let sessions = trx.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId !== null) sessions = sessions.where('id', '<>', keepSessionId);
  await sessions.execute();
  await trx.deleteFrom('auth_tickets').where('user_id', '=', userId).execute();
  await trx.deleteFrom('email_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('mailbox_links').where('linked_user_id', '=', userId).execute();
}

export async function liveSessions(db: Db, userId: number) {
  return db.selectFrom('sessions as s')
    .select((eb) => [
      's.id', 's.ip', 's.user_agent as userAgent', 's.created_at as createdAt', 's.last_seen_at as lastSeenAt',
      eb.exists(eb.selectFrom('push_subscriptions as p').select(sql`1`.as('x')).whereRef('p.session_id', '=', 's.id')).as('push'),
    ])
    .where('s.user_id', '=', userId).where('s.expires_at', '>', sql<Date>`now()`)
    .orderBy('s.created_at', 'desc').orderBy('s.id', 'desc')
    .execute();
}

/** Ends one of the user's own sessions; false when the id is not theirs (or does not exist). */
export async function deleteOwnSession(db: Db, userId: number, sessionId: number): Promise<boolean> {
  const row = await db.deleteFrom('sessions').where('id', '=', sessionId).where('user_id', '=', userId).returning('id').executeTakeFirst();
  return row !== undefined;
}
