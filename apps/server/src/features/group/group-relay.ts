import { createHash, randomBytes } from 'node:crypto';
import type { Spool, StagedBlob } from '../../blob/blob-store.js';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import * as outbox from '../../delivery/outbox.repository.js';
import { domainKey } from '../account/account.repository.js';

export interface RelayDeps { db: Db; blobs: BlobService; onQueued: () => void }

/**
 * Mail from outside to a group with outside members (issue 17): the members get it
 * through the outbound queue, one durable job each, committed before the SMTP 250.
 * The message goes as it came, with only an `X-Loop` line and our trace on top, so
 * the author's DKIM signature still verifies at the member's server (which keeps
 * DMARC passing without rewriting From). The envelope sender stays the original
 * one, as alias expansion does: a member's server that refuses it answers the real
 * author, and we send no bounce of our own to an outside address (backscatter).
 */
export class GroupRelay {
  constructor(private readonly d: RelayDeps) {}

  /** The groups of `groups` that already passed this mail on: their X-Loop line is in its header, and it must not go round again. */
  static looped(head: Buffer, groups: string[]): Set<string> {
    const text = head.subarray(0, head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.length).toString('latin1').toLowerCase();
    const marked = new Set([...text.matchAll(/^x-loop:\s*(\S+)/gm)].map((m) => m[1]!));
    return new Set(groups.filter((g) => marked.has(g)));
  }

  /**
   * Queues the message for each (group → outside members). `body` is the message as
   * received, with our trace headers; `messageId` (the author's) makes a retried SMTP
   * transaction queue nothing twice.
   */
  async relay(body: { raw: Buffer } | { head: Buffer; spool: Spool }, envelopeFrom: string, groups: Map<string, string[]>, messageId: string): Promise<void> {
    // A bounce (null sender) to a group is not passed on to outside addresses: a loop of reports would follow.
    if (!envelopeFrom || groups.size === 0) return;
    const marks = Buffer.from([...groups.keys()].map((g) => `X-Loop: ${g}\r\n`).join(''));
    const staged: StagedBlob = 'raw' in body
      ? await this.d.blobs.store.stage(Buffer.concat([marks, body.raw]))
      : await this.d.blobs.stageJoined(Buffer.concat([marks, body.head]), body.spool);
    const key = createHash('sha256').update(`${envelopeFrom}\n${messageId || randomBytes(16).toString('hex')}`).digest('hex').slice(0, 32);
    try {
      await this.d.db.transaction().execute(async (trx) => {
        // No reference is counted for the queue: a blob with queued jobs is never collected (blob.repository).
        await this.d.blobs.reference(trx, [{ staged, n: 0 }]);
        for (const [group, members] of groups) {
          const owner = await domainKey(trx, group.split('@')[1] ?? '');
          if (!owner || members.length === 0) continue;
          await outbox.enqueue(trx, members.map((rcpt) => ({
            messageId: null, senderId: null, companyId: owner.company_id, blobHash: staged.hash, mailFrom: envelopeFrom, rcpt,
            idempotencyKey: `group:${group}:${key}:${rcpt}`,
          })));
        }
      });
    } finally {
      await this.d.blobs.store.release(staged);
    }
    this.d.onQueued();
  }
}

/** The Message-ID of a message's header block (empty when it has none). */
export function headMessageId(head: Buffer): string {
  const end = head.indexOf('\r\n\r\n');
  const text = head.subarray(0, end >= 0 ? end : head.length).toString('latin1');
  return /^message-id:[ \t]*(.*(?:\r\n[ \t].*)*)/im.exec(text)?.[1]?.replace(/\s+/g, '').trim() ?? '';
}
