import type { Db } from '../../db/connect.js';
import type { AuditSubject } from '../audit/audit-match.js';

/**
 * The audit seam (issue 4): every outgoing mail passes the policy before it is
 * delivered. The policy (features/audit) is the one owner of "is this mail held":
 * compose asks it once, at send time (timed sends too), and a held mail waits as a
 * 'held' dispatch that only the policy's decision turns into a due one.
 */
/** The departments are looked up by the policy, only when a rule needs them. */
export interface AuditContext extends Omit<AuditSubject, 'departmentIds'> { companyId: number }

/** The rules that hold the mail; none means it goes. */
export interface AuditVerdict { ruleIds: number[] }

export interface AuditPolicy {
  review(db: Db, ctx: AuditContext): Promise<AuditVerdict>;
  /** Records the held mail in the sender's transaction; returns its audit item id. */
  hold(trx: Db, v: { messageId: number; ctx: AuditContext; verdict: AuditVerdict }): Promise<number>;
  /** After the commit: tells the auditors. Best effort; the held mail waits either way. */
  notify(itemId: number): Promise<void>;
  /** The sender took the held mail back to Drafts (compose's cancel). */
  withdraw(trx: Db, messageId: number, userId: number): Promise<void>;
}
