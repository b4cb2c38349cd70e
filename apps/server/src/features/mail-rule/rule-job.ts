import { SystemFolder } from '@mailwing/shared';
import type { StagedBlob } from '../../blob/blob-store.js';
import type { Db } from '../../db/connect.js';
import * as outbox from '../../delivery/outbox.repository.js';
import { resolveMany } from '../account/account.repository.js';
import * as messages from '../message/message.repository.js';
import * as repo from './mail-rule.repository.js';
import type { RuleEngine } from './rule-engine.js';
import type { Outcome } from './rule-evaluator.js';
import { resendAsIs } from './rule-mail.js';

/** What must wait for the job's transaction: releasing staged forwards, and forwards to our own mailboxes. */
export interface JobAfter { staged: StagedBlob[]; local: (() => Promise<void>)[]; queued: boolean }

/**
 * A saved rule's actions on one stored mail, inside the job's transaction. Moves, flags
 * and tags are idempotent by nature; a forward is recorded per (rule, mail, address)
 * first, so a second run (or a retried batch) never sends it again. Reject means
 * nothing for mail already accepted and is skipped.
 */
export async function applyToStored(engine: RuleEngine, trx: Db, userId: number, m: repo.StoredMail, o: Outcome, after: JobAfter): Promise<void> {
  const folder = o.deleted ? Number(SystemFolder.Deleted) : o.folder;
  if (folder !== null && folder !== m.folder_mid && (await repo.existingFolders(trx, userId, [folder])).has(folder)) await messages.moveTo(trx, userId, [m.id], folder);
  if (o.read) await messages.setSeen(trx, userId, [m.id], true);
  if (o.star) await messages.setStar(trx, userId, [m.id], true);
  await repo.tagRows(trx, [{ messageId: m.id, userId, tagIds: o.tags }]);
  if (o.forwards.length === 0) return;
  const fresh = await repo.claimEffects(trx, o.forwards.map((f) => ({ ruleId: f.ruleId, messageId: m.id, kind: `forward:${f.to}` })), engine.d.now());
  if (fresh.length === 0) return;
  const [box] = await repo.mailboxes(trx, [userId]);
  if (!box) return;
  const raw = await engine.d.blobs.get(m.blob_hash, trx);
  const targets = await resolveMany(trx, fresh.map((e) => e.kind.slice('forward:'.length)));
  for (const e of fresh) {
    const to = e.kind.slice('forward:'.length);
    const target = targets.get(to);
    if (!target || (target.hosted && target.targets.length === 0)) continue;
    const resent = await resendAsIs(raw, box, to, engine.d.now());
    const local = target.targets.map((t) => t.userId).filter((u) => u !== userId);
    if (target.targets.length > 0) {
      if (local.length > 0) after.local.push(() => engine.deliverLocal(resent, box.email, local));
      continue;
    }
    const staged = await engine.d.blobs.store.stage(resent);
    after.staged.push(staged);
    await engine.d.blobs.reference(trx, [{ staged, n: 0 }]);
    await outbox.enqueue(trx, [{
      messageId: null, senderId: userId, companyId: box.companyId, blobHash: staged.hash, mailFrom: box.email, rcpt: to, idempotencyKey: `rule:${e.ruleId}:${m.id}:${to}`,
    }]);
    after.queued = true;
  }
}
