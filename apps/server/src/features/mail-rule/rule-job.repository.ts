import type { Db } from '../../db/connect.js';
import './mail-rule.tables.js';

const columns = ['id', 'user_id', 'rule_id', 'folder_mid', 'state', 'cursor_id', 'total', 'scanned', 'matched'] as const;

export async function insertJob(db: Db, v: { userId: number; ruleId: number; folderMid: number; total: number; now: Date }): Promise<number> {
  const r = await db.insertInto('mail_rule_jobs').values({
    user_id: v.userId, rule_id: v.ruleId, folder_mid: v.folderMid, total: v.total, created_at: v.now, updated_at: v.now, lease_until: v.now,
  }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function findJob(db: Db, userId: number, id: number) {
  return db.selectFrom('mail_rule_jobs').select(columns).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/**
 * One open job, locked for the rest of the caller's transaction: a node that dies
 * mid-batch rolls back and the job stays open for the next claim (SKIP LOCKED keeps
 * two nodes off the same job).
 */
export async function lockOpenJob(trx: Db) {
  return trx.selectFrom('mail_rule_jobs').select(columns).where('state', '=', 'queued')
    .orderBy('lease_until').orderBy('id').limit(1).forUpdate().skipLocked().executeTakeFirst();
}

export async function advanceJob(trx: Db, id: number, v: { cursor: number; scanned: number; matched: number; done: boolean; now: Date }): Promise<void> {
  await trx.updateTable('mail_rule_jobs').set((eb) => ({
    cursor_id: v.cursor, scanned: eb('scanned', '+', v.scanned), matched: eb('matched', '+', v.matched),
    state: v.done ? 'done' : 'queued', updated_at: v.now, lease_until: v.now,
  })).where('id', '=', id).execute();
}
