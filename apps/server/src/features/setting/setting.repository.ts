import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

export interface SettingsRow {
  notify_new_mail: boolean;
  quiet_enabled: boolean;
  quiet_start: number;
  quiet_end: number;
  time_zone: string;
  notify_folders: string[];
  conversation_view: boolean;
}

/** Migration 005's column defaults, for a mailbox that never saved its settings. */
export const DEFAULT_SETTINGS: SettingsRow = {
  notify_new_mail: true, quiet_enabled: false, quiet_start: 22 * 60, quiet_end: 7 * 60, time_zone: 'UTC', notify_folders: ['0', '5'], conversation_view: true,
};

const SETTINGS_COLUMNS = ['notify_new_mail', 'quiet_enabled', 'quiet_start', 'quiet_end', 'time_zone', 'notify_folders', 'conversation_view'] as const;

export async function profile(db: Db, userId: number) {
  return db.selectFrom('users').innerJoin('companies', 'companies.id', 'users.company_id')
    .select([
      'users.email', 'users.name', 'users.avatar_hash', 'users.role', 'users.quota_bytes', 'users.used_bytes', 'users.language',
      'companies.name as company', sql<boolean>`users.totp_secret IS NOT NULL`.as('secverify'),
      (eb) => eb.exists(eb.selectFrom('wechat_bindings').select(sql`1`.as('x')).whereRef('wechat_bindings.user_id', '=', 'users.id')).as('wechat_bound'),
    ])
    .where('users.id', '=', userId).executeTakeFirst();
}

export async function settingsOf(db: Db, userIds: number[]): Promise<Map<number, SettingsRow>> {
  const out = new Map<number, SettingsRow>();
  if (userIds.length === 0) return out;
  const rows = await db.selectFrom('user_settings').select(['user_id', ...SETTINGS_COLUMNS]).where('user_id', 'in', userIds).execute();
  for (const r of rows) out.set(r.user_id, { ...r, notify_folders: r.notify_folders.map(String) });
  return out;
}

/** Insert with the defaults or update just the given columns: two devices saving different fields both win. */
export async function upsertSettings(db: Db, userId: number, patch: Partial<SettingsRow>): Promise<void> {
  const values: Record<string, unknown> = { ...patch };
  if (patch.notify_folders) values.notify_folders = JSON.stringify(patch.notify_folders);
  await db.insertInto('user_settings').values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: sql`now()` }))
    .execute();
}

/** Which of `mids` are folders of this mailbox (system folders have rows too). */
export async function ownFolders(db: Db, userId: number, mids: number[]): Promise<Set<number>> {
  if (mids.length === 0) return new Set();
  const rows = await db.selectFrom('folders').select('mid').where('user_id', '=', userId).where('mid', 'in', mids).execute();
  return new Set(rows.map((r) => r.mid));
}

export async function setLanguage(db: Db, userId: number, language: 'zh' | 'en'): Promise<void> {
  await db.updateTable('users').set({ language }).where('id', '=', userId).execute();
}

export async function setName(db: Db, userId: number, name: string): Promise<void> {
  await db.updateTable('users').set({ name }).where('id', '=', userId).execute();
}

/** The current avatar, locked until the transaction ends, so two uploads at once count references right. */
export async function lockAvatar(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('avatar_hash').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
  return row.avatar_hash;
}

export async function setAvatar(db: Db, userId: number, hash: string): Promise<void> {
  await db.updateTable('users').set({ avatar_hash: hash }).where('id', '=', userId).execute();
}

export async function avatarByEmail(db: Db, email: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('avatar_hash').where('email', '=', email.toLowerCase()).where('status', '=', 'active').executeTakeFirst();
  return row?.avatar_hash ?? null;
}
