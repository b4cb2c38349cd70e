import { SystemFolder, type Address } from '@mailwing/shared';
import { rulesFor } from '../contact/contact.repository.js';
import type { StagedBlob } from '../../blob/blob-store.js';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import type { StoredAuthResults } from '../../db/types.js';
import { GroupCommitter } from '../../db/group-commit.js';
import type { ParsedContent } from './mail-parse.js';
import type { ParsePool } from './parse-pool.js';
import * as repo from './message.repository.js';

export interface LocalRecipient {
  userId: number;
  folderMid: number;
  seen?: boolean;
  star?: boolean;
  deliveryState?: string | null;
  bcc?: Address[];
  /** Sender authentication of mail that came in through MX (smtp/inbound-auth.ts); absent for local mail. */
  auth?: StoredAuthResults;
}

/** A mail just committed into someone's mailbox: what notifications (Web Push) start from. */
export interface NewMail { userId: number; messageId: number; folderMid: number }

interface Pending { staged: StagedBlob; size: number; content: ParsedContent; recipients: LocalRecipient[]; receivedAt: Date }

/**
 * Stores one raw message for any number of local mailboxes: one blob, one parsed
 * content row, one messages row per mailbox. `deliver` resolves only once the blob
 * is fsynced and the rows are committed (the durability rule of DESIGN.md); the
 * SMTP server acknowledges after that and not before. Concurrent deliveries share
 * transactions through group commit.
 */
export class IngestService {
  private readonly committer: GroupCommitter<Pending, number[]>;
  private readonly listeners: ((mail: NewMail[]) => void)[] = [];

  constructor(private readonly db: Db, private readonly blobs: BlobService, private readonly parser: ParsePool, commitConcurrency: number) {
    this.committer = new GroupCommitter((items) => this.commit(items), { maxBatch: 64, concurrency: commitConcurrency });
  }

  async deliver(raw: Buffer, envelopeFrom: string, recipients: LocalRecipient[], parsed?: ParsedContent): Promise<number[]> {
    if (recipients.length === 0) return [];
    // Parsing (a worker thread) and the blob's fsyncs (the disk) overlap.
    const [content, staged] = await Promise.all([parsed ?? this.parser.parse(raw, envelopeFrom), this.blobs.store.stage(raw)]);
    const filed = await this.applySenderRules(recipients, [content.from.address, envelopeFrom.toLowerCase()]);
    // A fixed order of rows keeps concurrent deliveries from deadlocking on folder counters.
    const ordered = [...filed].sort((a, b) => a.userId - b.userId || a.folderMid - b.folderMid);
    let ids: number[];
    try {
      ids = await this.committer.submit({ staged, size: raw.length, content, recipients: ordered, receivedAt: new Date() });
    } finally {
      await this.blobs.store.release(staged);
    }
    this.announce(ordered.flatMap((r, i) => (r.seen ? [] : [{ userId: r.userId, messageId: ids[i]!, folderMid: r.folderMid }])));
    return ids;
  }

  /**
   * New mail for a mailbox gets here from every path that stores it: this service's
   * own deliveries (SMTP, bounces) and, after their commit, compose's local ones.
   * Listeners run after the commit and must not block or fail the delivery.
   */
  onNewMail(fn: (mail: NewMail[]) => void): void {
    this.listeners.push(fn);
  }

  announce(mail: NewMail[]): void {
    if (mail.length === 0) return;
    for (const fn of this.listeners) {
      try {
        fn(mail);
      } catch {
        // A listener's failure is its own: the mail is stored either way.
      }
    }
  }

  /**
   * Personal block and allow lists (issue 6): mail from a blocked address or domain
   * goes to Spam; an allowed sender is never put there, even if also blocked.
   */
  private async applySenderRules(recipients: LocalRecipient[], senders: string[]): Promise<LocalRecipient[]> {
    const rules = await rulesFor(this.db, recipients.map((r) => r.userId), senders.filter(Boolean));
    if (rules.length === 0) return recipients;
    const blocked = new Set(rules.filter((r) => r.kind === 'block').map((r) => r.user_id));
    const allowed = new Set(rules.filter((r) => r.kind === 'allow').map((r) => r.user_id));
    const spam = Number(SystemFolder.Spam);
    return recipients.map((r) => (blocked.has(r.userId) && !allowed.has(r.userId) ? { ...r, folderMid: spam } : r));
  }

  private commit(items: Pending[]): Promise<number[][]> {
    return this.db.transaction().execute(async (trx) => {
      const refs = new Map<string, { staged: StagedBlob; n: number }>();
      for (const it of items) {
        const prev = refs.get(it.staged.hash);
        refs.set(it.staged.hash, { staged: it.staged, n: (prev?.n ?? 0) + it.recipients.length });
      }
      await this.blobs.reference(trx, [...refs.values()]);
      const contentIds = await repo.insertContents(trx, items.map((it) => ({ hash: it.staged.hash, content: it.content })));
      const rows = items.flatMap((it, i) => {
        const hasAttach = it.content.attachments.some((a) => !a.inline);
        return it.recipients.map((r) => ({
          user_id: r.userId, folder_mid: r.folderMid, content_id: contentIds[i]!, blob_hash: it.staged.hash, size: it.size,
          received_at: it.receivedAt, seen: r.seen ?? false, star: r.star ?? false, urgent: it.content.urgent, has_attach: hasAttach,
          delivery_state: r.deliveryState ?? null, bcc: JSON.stringify(r.bcc ?? []), auth_results: r.auth ? JSON.stringify(r.auth) : null,
        }));
      });
      const ids = await repo.insertMessages(trx, rows);
      let at = 0;
      return items.map((it) => {
        const mine = ids.slice(at, at + it.recipients.length);
        at += it.recipients.length;
        return mine;
      });
    });
  }
}
