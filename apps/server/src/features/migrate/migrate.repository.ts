import { sql, type ColumnType, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';

// The tables of 020-admin-migrate.ts (migration part). Every query an admin's id reaches is scoped by company_id.

type State = 'queued' | 'running' | 'done' | 'failed';
export interface MigrateAccountsTable {
  id: Generated<number>; company_id: number; user_id: number; host: string; port: number; tls: 'tls' | 'starttls' | 'none';
  username: string; secret: string; state: State; finalise: Generated<boolean>; reason: string | null; error_reply: string | null;
  lease_until: Date | null; runs: Generated<number>; copied_messages: Generated<number>; copied_bytes: Generated<number>;
  started_at: Date | null; finished_at: Date | null; finalised_at: Date | null; created_at: ColumnType<Date, never, never>;
}
export interface MigrateFoldersTable {
  account_id: number; folder: string; target_mid: number; uidvalidity: number | null; last_uid: Generated<number>; state: State;
  messages_total: Generated<number>; bytes_total: Generated<number>; messages_done: Generated<number>; bytes_done: Generated<number>;
  copied_messages: Generated<number>;
}
type Tables = { migrate_accounts: MigrateAccountsTable; migrate_folders: MigrateFoldersTable };
export type AccountRow = Selectable<MigrateAccountsTable>;
export type FolderRow = Selectable<MigrateFoldersTable>;
export type AccountView = AccountRow & { new_address: string; messages_total: number; bytes_total: number; messages_done: number; bytes_done: number };

const t = (db: Db) => db.withTables<Tables>();
const num = <T extends Record<string, unknown>>(row: T, keys: (keyof T)[]): T => {
  const out = { ...row };
  for (const k of keys) (out as Record<string, unknown>)[k as string] = Number(row[k]);
  return out;
};

/** Inserts an account, or puts an existing one (same new mailbox and old login) back in the queue with the new password. */
export async function upsertAccount(db: Db, a: { company_id: number; user_id: number; host: string; port: number; tls: AccountRow['tls']; username: string; secret: string }): Promise<void> {
  await t(db).insertInto('migrate_accounts').values({ ...a, state: 'queued' })
    .onConflict((oc) => oc.columns(['company_id', 'user_id', 'host', 'username']).doUpdateSet({ port: a.port, tls: a.tls, secret: a.secret, state: 'queued', reason: null, error_reply: null }))
    .execute();
}

function withProgress(db: Db) {
  return t(db).selectFrom('migrate_accounts as a').innerJoin('users as u', 'u.id', 'a.user_id').selectAll('a').select('u.email as new_address')
    .select((eb) => [
      eb.selectFrom('migrate_folders as f').whereRef('f.account_id', '=', 'a.id').select(sql<number>`coalesce(sum(messages_total), 0)::int8`.as('x')).as('messages_total'),
      eb.selectFrom('migrate_folders as f').whereRef('f.account_id', '=', 'a.id').select(sql<number>`coalesce(sum(bytes_total), 0)::int8`.as('x')).as('bytes_total'),
      eb.selectFrom('migrate_folders as f').whereRef('f.account_id', '=', 'a.id').select(sql<number>`coalesce(sum(messages_done), 0)::int8`.as('x')).as('messages_done'),
      eb.selectFrom('migrate_folders as f').whereRef('f.account_id', '=', 'a.id').select(sql<number>`coalesce(sum(bytes_done), 0)::int8`.as('x')).as('bytes_done'),
    ]);
}
const viewKeys = ['id', 'user_id', 'company_id', 'copied_messages', 'copied_bytes', 'messages_total', 'bytes_total', 'messages_done', 'bytes_done'] as const;

export async function listAccounts(db: Db, companyId: number): Promise<AccountView[]> {
  const rows = await withProgress(db).where('a.company_id', '=', companyId).orderBy('a.id').execute();
  return rows.map((r) => num(r as AccountView, [...viewKeys]));
}

export async function findAccount(db: Db, companyId: number, id: number): Promise<AccountView | undefined> {
  const r = await withProgress(db).where('a.company_id', '=', companyId).where('a.id', '=', id).executeTakeFirst();
  return r && num(r as AccountView, [...viewKeys]);
}

export async function listFolders(db: Db, accountId: number): Promise<FolderRow[]> {
  const rows = await t(db).selectFrom('migrate_folders').selectAll().where('account_id', '=', accountId).orderBy('folder').execute();
  return rows.map((r) => num(r, ['last_uid', 'uidvalidity', 'bytes_total', 'bytes_done']));
}

export async function deleteAccount(db: Db, companyId: number, id: number): Promise<number> {
  const r = await t(db).deleteFrom('migrate_accounts').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Queues done or failed accounts again (all of the company's, or one); a running one is left alone. Returns how many. */
export async function requeue(db: Db, companyId: number, id: number | undefined, finalise: boolean): Promise<number> {
  let q = t(db).updateTable('migrate_accounts').set({ state: 'queued', reason: null, error_reply: null, ...(finalise ? { finalise: true } : {}) })
    .where('company_id', '=', companyId).where('state', 'in', ['done', 'failed']);
  if (id !== undefined) q = q.where('id', '=', id);
  return Number((await q.executeTakeFirst()).numUpdatedRows);
}

/**
 * Takes up to `limit` jobs: queued ones, and running ones whose lease ran out (their
 * process died mid-run). SKIP LOCKED leaves rows another node is claiming to that node.
 */
export async function claim(db: Db, now: Date, leaseMs: number, limit: number): Promise<AccountRow[]> {
  const until = new Date(now.getTime() + leaseMs);
  const r = await sql<AccountRow>`
    UPDATE migrate_accounts a SET state = 'running', lease_until = ${until}, runs = a.runs + 1, started_at = ${now}, reason = NULL, error_reply = NULL
    FROM (SELECT id FROM migrate_accounts
          WHERE state = 'queued' OR (state = 'running' AND (lease_until IS NULL OR lease_until <= ${now}))
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED) c
    WHERE a.id = c.id RETURNING a.*`.execute(db);
  return r.rows.map((row) => num(row, ['id', 'user_id', 'company_id', 'copied_messages', 'copied_bytes']));
}

/** Keeps a long run's lease ahead of the clock. */
export async function renewLease(db: Db, id: number, until: Date): Promise<void> {
  await t(db).updateTable('migrate_accounts').set({ lease_until: until }).where('id', '=', id).where('state', '=', 'running').execute();
}

export async function finishRun(db: Db, id: number, o: { at: Date; copied: number; bytes: number; error: { reason: string; reply: string } | null; finalise: boolean }): Promise<void> {
  await t(db).updateTable('migrate_accounts').set((eb) => ({
    state: o.error ? 'failed' : 'done', lease_until: null, finished_at: o.at, reason: o.error?.reason ?? null, error_reply: o.error?.reply ?? null,
    copied_messages: eb('copied_messages', '+', o.copied), copied_bytes: eb('copied_bytes', '+', o.bytes),
    ...(o.finalise && !o.error ? { finalised_at: o.at } : {}),
  })).where('id', '=', id).execute();
}

export async function folderState(db: Db, accountId: number, folder: string) {
  const r = await t(db).selectFrom('migrate_folders').select(['uidvalidity', 'last_uid']).where('account_id', '=', accountId).where('folder', '=', folder).executeTakeFirst();
  return r && r.uidvalidity !== null ? { uidvalidity: Number(r.uidvalidity), last_uid: Number(r.last_uid) } : undefined;
}

/** Registers a remote folder for this run (its target may have changed); its counters of the last run start again. */
export async function startFolder(db: Db, accountId: number, folder: string, targetMid: number): Promise<void> {
  await t(db).insertInto('migrate_folders').values({ account_id: accountId, folder, target_mid: targetMid, state: 'running' })
    .onConflict((oc) => oc.columns(['account_id', 'folder']).doUpdateSet({ target_mid: targetMid, state: 'running', messages_total: 0, bytes_total: 0, messages_done: 0, bytes_done: 0, copied_messages: 0 }))
    .execute();
}

export async function setFolder(db: Db, accountId: number, folder: string, change: Partial<Pick<FolderRow, 'state' | 'messages_total' | 'bytes_total' | 'messages_done' | 'bytes_done' | 'copied_messages'>>): Promise<void> {
  await t(db).updateTable('migrate_folders').set(change).where('account_id', '=', accountId).where('folder', '=', folder).execute();
}

/** Within one UIDVALIDITY the last UID only grows; a new UIDVALIDITY starts it again. */
export async function advanceFolder(db: Db, accountId: number, folder: string, uidvalidity: number, uid: number): Promise<void> {
  await t(db).updateTable('migrate_folders').set({
    last_uid: sql<number>`CASE WHEN uidvalidity = ${uidvalidity} THEN GREATEST(last_uid, ${uid}) ELSE ${uid} END`, uidvalidity,
  }).where('account_id', '=', accountId).where('folder', '=', folder).execute();
}

export async function userInCompany(db: Db, companyId: number, email: string): Promise<number | undefined> {
  const r = await db.selectFrom('users').select('id').where('company_id', '=', companyId).where('email', '=', email.toLowerCase()).executeTakeFirst();
  return r && Number(r.id);
}
