import type { Address } from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { parseMail, type ParsedContent } from './mail-parse.js';
import * as repo from './message.repository.js';

export interface LocalRecipient {
  userId: number;
  folderMid: number;
  seen?: boolean;
  star?: boolean;
  deliveryState?: string | null;
  bcc?: Address[];
}

/**
 * Stores one raw message for any number of local mailboxes: one blob, one parsed
 * content row, one messages row per mailbox. It returns only once the blob is
 * fsynced and the rows are committed (the durability rule of DESIGN.md); callers
 * such as the SMTP server acknowledge after that and not before.
 */
export class IngestService {
  constructor(private readonly db: Db, private readonly blobs: BlobService) {}

  async deliver(raw: Buffer, envelopeFrom: string, recipients: LocalRecipient[], parsed?: ParsedContent): Promise<number[]> {
    if (recipients.length === 0) return [];
    const content = parsed ?? (await parseMail(raw, envelopeFrom));
    const staged = await this.blobs.store.stage(raw);
    // A fixed order of rows keeps concurrent deliveries from deadlocking on folder counters.
    const ordered = [...recipients].sort((a, b) => a.userId - b.userId || a.folderMid - b.folderMid);
    const hasAttach = content.attachments.some((a) => !a.inline);
    const receivedAt = new Date();
    try {
      return await this.db.transaction().execute(async (trx) => {
        await this.blobs.reference(trx, staged, ordered.length);
        const contentId = await repo.insertContent(trx, staged.hash, content);
        return repo.insertMessages(trx, ordered.map((r) => ({
          user_id: r.userId, folder_mid: r.folderMid, content_id: contentId, blob_hash: staged.hash, size: raw.length,
          received_at: receivedAt, seen: r.seen ?? false, star: r.star ?? false, urgent: content.urgent, has_attach: hasAttach,
          delivery_state: r.deliveryState ?? null, bcc: JSON.stringify(r.bcc ?? []),
        })));
      });
    } finally {
      await this.blobs.store.release(staged);
    }
  }
}
