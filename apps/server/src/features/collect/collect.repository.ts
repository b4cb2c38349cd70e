import { sql, type ColumnType, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';

// The tables of 011-collection.ts. Typed here rather than in db/types.ts, so this feature
// stays in its own files; every query a client's id reaches is scoped by user_id.

export interface CollectAccountsTable {
  id: Generated<number>; user_id: number; protocol: 'pop3' | 'imap'; host: string; port: number; tls: 'tls' | 'starttls' | 'none';
  username: string; secret: string; leave_copy: boolean; folder_mid: number; interval_min: number; next_run_at: Date;
  lease_until: Date | null; paused: Generated<boolean>; auth_failures: Generated<number>; last_run_at: Date | null;
  last_count: Generated<number>; last_bytes: Generated<number>; total_count: Generated<number>; error_kind: string | null; error_reply: string | null;
  created_at: ColumnType<Date, never, never>;
}
type Tables = {
  collect_accounts: CollectAccountsTable;
  collect_uidls: { account_id: number; uidl: string };
  collect_imap_state: { account_id: number; folder: string; uidvalidity: number; last_uid: number };
  collect_seen: { user_id: number; source: string; fingerprint: string };
};
export type AccountRow = Selectable<CollectAccountsTable>;
export type NewAccount = Omit<AccountRow, 'id' | 'paused' | 'auth_failures' | 'last_run_at' | 'last_count' | 'last_bytes' | 'total_count' | 'error_kind' | 'error_reply' | 'created_at' | 'lease_until'>;
export type AccountChange = Partial<Pick<AccountRow, 'protocol' | 'host' | 'port' | 'tls' | 'username' | 'secret' | 'leave_copy' | 'folder_mid' | 'interval_min' | 'next_run_at' | 'paused' | 'auth_failures'>>;

const t = (db: Db) => db.withTables<Tables>();

export async function listAccounts(db: Db, userId: number): Promise<AccountRow[]> {
  return t(db).selectFrom('collect_accounts').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export async function findAccount(db: Db, userId: number, id: number): Promise<AccountRow | undefined> {
  return t(db).selectFrom('collect_accounts').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function insertAccount(db: Db, a: NewAccount): Promise<AccountRow> {
  return t(db).insertInto('collect_accounts').values(a).returningAll().executeTakeFirstOrThrow();
}

export async function updateAccount(db: Db, userId: number, id: number, change: AccountChange): Promise<void> {
  await t(db).updateTable('collect_accounts').set(change).where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function deleteAccount(db: Db, userId: number, id: number): Promise<number> {
  const r = await t(db).deleteFrom('collect_accounts').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function countAccounts(db: Db, userId: number): Promise<number> {
  const r = await t(db).selectFrom('collect_accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Takes up to `limit` due accounts for this node: their lease moves ahead in one short
 * transaction, and SKIP LOCKED leaves rows another node is claiming to that node.
 * With `id`, only that account, due or not ("check now"); a leased one is not taken.
 */
export async function claim(db: Db, now: Date, leaseMs: number, limit: number, only?: { userId: number; id: number }): Promise<AccountRow[]> {
  const until = new Date(now.getTime() + leaseMs);
  const filter = only ? sql`user_id = ${only.userId} AND id = ${only.id}` : sql`NOT paused AND next_run_at <= ${now}`;
  const r = await sql<AccountRow>`
    UPDATE collect_accounts a SET lease_until = ${until}
    FROM (SELECT id FROM collect_accounts WHERE ${filter} AND (lease_until IS NULL OR lease_until <= ${now})
          ORDER BY next_run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED) c
    WHERE a.id = c.id RETURNING a.*`.execute(db);
  return r.rows.map((row) => ({ ...row, id: Number(row.id), user_id: Number(row.user_id), last_bytes: Number(row.last_bytes), total_count: Number(row.total_count) }));
}

export interface RunOutcome { at: Date; count: number; bytes: number; nextRunAt: Date; error: { kind: string; reply: string } | null; authFailed: boolean; pauseAfter: number }

/** Ends a run: releases the lease, records the status, counts auth failures. Returns whether the account is now paused. */
export async function finishRun(db: Db, id: number, o: RunOutcome): Promise<boolean> {
  const row = await t(db).updateTable('collect_accounts').set((eb) => ({
    lease_until: null, last_run_at: o.at, last_count: o.count, last_bytes: o.bytes, next_run_at: o.nextRunAt,
    total_count: eb('total_count', '+', o.count), error_kind: o.error?.kind ?? null, error_reply: o.error?.reply ?? null,
    auth_failures: o.authFailed ? eb('auth_failures', '+', 1) : 0,
    paused: o.authFailed ? sql<boolean>`paused OR auth_failures + 1 >= ${o.pauseAfter}` : eb.ref('paused'),
  })).where('id', '=', id).returning(['paused']).executeTakeFirst();
  return row?.paused ?? false;
}

export async function knownUidls(db: Db, accountId: number): Promise<Set<string>> {
  const rows = await t(db).selectFrom('collect_uidls').select('uidl').where('account_id', '=', accountId).execute();
  return new Set(rows.map((r) => r.uidl));
}

export async function seenFingerprints(db: Db, userId: number, source: string, fingerprints: string[]): Promise<Set<string>> {
  if (fingerprints.length === 0) return new Set();
  const rows = await t(db).selectFrom('collect_seen').select('fingerprint').where('user_id', '=', userId).where('source', '=', source)
    .where('fingerprint', 'in', fingerprints).execute();
  return new Set(rows.map((r) => r.fingerprint));
}

export interface Fetched { accountId: number; userId: number; source: string; fingerprint: string; uidl?: string }

/** Records one remote message as collected; runs in the transaction that stores it, so ON CONFLICT everywhere. */
export async function recordFetched(db: Db, f: Fetched): Promise<void> {
  await t(db).insertInto('collect_seen').values({ user_id: f.userId, source: f.source, fingerprint: f.fingerprint }).onConflict((oc) => oc.doNothing()).execute();
  if (f.uidl !== undefined) {
    await t(db).insertInto('collect_uidls').values({ account_id: f.accountId, uidl: f.uidl }).onConflict((oc) => oc.doNothing()).execute();
  }
}

export async function imapState(db: Db, accountId: number, folder: string): Promise<{ uidvalidity: number; last_uid: number } | undefined> {
  const r = await t(db).selectFrom('collect_imap_state').select(['uidvalidity', 'last_uid']).where('account_id', '=', accountId).where('folder', '=', folder).executeTakeFirst();
  return r && { uidvalidity: Number(r.uidvalidity), last_uid: Number(r.last_uid) };
}

/** The last UID only grows within one UIDVALIDITY; a new UIDVALIDITY starts it again. */
export async function setImapState(db: Db, accountId: number, folder: string, uidvalidity: number, uid: number): Promise<void> {
  await t(db).insertInto('collect_imap_state').values({ account_id: accountId, folder, uidvalidity, last_uid: uid })
    .onConflict((oc) => oc.columns(['account_id', 'folder']).doUpdateSet({
      uidvalidity,
      last_uid: sql<number>`CASE WHEN collect_imap_state.uidvalidity = ${uidvalidity} THEN GREATEST(collect_imap_state.last_uid, ${uid}) ELSE ${uid} END`,
    })).execute();
}

/** Pruned after a full listing, so the table does not keep ids the server no longer has. */
export async function forgetUidls(db: Db, accountId: number, keep: Set<string>): Promise<void> {
  const known = await knownUidls(db, accountId);
  const gone = [...known].filter((u) => !keep.has(u));
  for (let i = 0; i < gone.length; i += 500) {
    await t(db).deleteFrom('collect_uidls').where('account_id', '=', accountId).where('uidl', 'in', gone.slice(i, i + 500)).execute();
  }
}

export async function folderExists(db: Db, userId: number, mid: number): Promise<boolean> {
  return !!(await db.selectFrom('folders').select('mid').where('user_id', '=', userId).where('mid', '=', mid).executeTakeFirst());
}
