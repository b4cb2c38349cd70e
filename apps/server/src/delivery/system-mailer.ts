import { randomBytes } from 'node:crypto';
import { SystemFolder } from '@mailwing/shared';
import type { Logger } from 'pino';
import type { BlobService } from '../blob/blob.service.js';
import type { Db } from '../db/connect.js';
import { domainKey, resolveMany } from '../features/account/account.repository.js';
import { mailExists } from '../features/calendar/reminder.repository.js';
import { composeMime } from '../features/message/compose-mime.js';
import type { IngestService } from '../features/message/ingest.service.js';
import { dkimSign } from './dkim.js';
import * as outbox from './outbox.repository.js';

export interface SystemMail {
  to: string;
  /** The hosted domain the mail speaks for: it comes From postmaster@ this domain, signed with its key. */
  domain: string;
  subject: string;
  text: string;
  /**
   * Makes a repeated send a no-op (a job retried after a crash): the Message-ID and the outbox
   * idempotency key derive from it, and a local mailbox already holding that Message-ID is skipped.
   */
  key?: string;
}

export interface SystemMailerDeps {
  db: Db;
  blobs: BlobService;
  ingest: IngestService;
  /** Used in From when the domain is not (or no longer) hosted here. */
  hostname: string;
  onQueued: () => void;
  log?: Logger;
}

export type SendOutcome = 'local' | 'queued' | 'dropped';

/**
 * Mail the service itself writes (verification codes). It is a real message like
 * any other: built by nodemailer's composer, DKIM-signed like compose signs, put
 * straight into a hosted mailbox, or queued to the outbox for an outside address.
 */
export class SystemMailer {
  constructor(private readonly d: SystemMailerDeps) {}

  /** The signed raw message. Also used to spend the same work when nothing is sent (see the reset decoy). */
  async build(mail: SystemMail): Promise<{ raw: Buffer; from: string; companyId: number | null }> {
    const key = await domainKey(this.d.db, mail.domain);
    const domain = key?.name ?? this.d.hostname;
    const from = `postmaster@${domain}`;
    let raw = await composeMime({
      from: { name: 'Mailwing', address: from }, to: mail.to, subject: mail.subject, text: mail.text,
      messageId: mail.key ? `<${mail.key}.system@${domain}>` : `<${randomBytes(16).toString('hex')}.system@${domain}>`, date: new Date(),
      // RFC 3834 §5: written by a program, so auto-responders must not answer it.
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    if (key) raw = await dkimSign(raw, { domain: key.name, selector: key.dkim_selector, privateKey: key.dkim_private_key });
    return { raw, from, companyId: key?.company_id ?? null };
  }

  async send(mail: SystemMail): Promise<SendOutcome> {
    const { raw, from, companyId } = await this.build(mail);
    const to = mail.to.toLowerCase();
    const resolved = (await resolveMany(this.d.db, [to])).get(to)!;
    if (resolved.targets.length > 0) {
      const messageId = mail.key ? `<${mail.key}.system@${from.split('@')[1]}>` : null;
      const targets = [];
      for (const t of resolved.targets) if (!messageId || !(await mailExists(this.d.db, t.userId, messageId))) targets.push(t);
      if (targets.length === 0) return 'local';
      await this.d.ingest.deliver(raw, from, targets.map((t) => ({
        userId: t.userId, folderMid: Number(t.via === 'group' ? SystemFolder.GroupMail : SystemFolder.Inbox),
      })));
      return 'local';
    }
    if (resolved.hosted || companyId === null) {
      // Our own domain without such a mailbox: nobody could receive it, and queueing would only bounce to postmaster.
      this.d.log?.warn({ domain: to.split('@')[1] }, 'system mail to a hosted address that does not exist was dropped');
      return 'dropped';
    }
    const staged = await this.d.blobs.store.stage(raw);
    try {
      await this.d.db.transaction().execute(async (trx) => {
        // No mailbox holds a copy: the queued job alone keeps the blob (blob.repository's collector checks the outbox).
        await this.d.blobs.reference(trx, [{ staged, n: 0 }]);
        await outbox.enqueue(trx, [{
          messageId: null, senderId: null, companyId, blobHash: staged.hash, mailFrom: from, rcpt: to,
          idempotencyKey: `system:${mail.key ?? randomBytes(12).toString('hex')}:${to}`,
        }]);
      });
    } finally {
      await this.d.blobs.store.release(staged);
    }
    this.d.onQueued();
    return 'queued';
  }
}
