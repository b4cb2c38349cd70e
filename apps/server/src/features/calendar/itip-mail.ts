import { randomBytes } from 'node:crypto';
import { SystemFolder } from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { dkimSign } from '../../delivery/dkim.js';
import * as outbox from '../../delivery/outbox.repository.js';
import { resolveMany } from '../account/account.repository.js';
import type { SenderProfile } from '../compose/compose.repository.js';
import { composeMime } from '../message/compose-mime.js';
import type { IngestService } from '../message/ingest.service.js';
import type { ItipMethod } from './itip.js';
import * as repo from './invite.repository.js';

export interface ItipMailDeps { db: Db; blobs: BlobService; ingest: IngestService; onQueued: () => void }

/** What the readable parts of an iTIP mail say. */
export interface ItipSummary { title: string; start_local: string; tz: string; answer?: string }

const SUBJECT: Record<ItipMethod, [string, string]> = { REQUEST: ['邀请', 'Invitation'], CANCEL: ['已取消', 'Cancelled'], REPLY: ['答复', 'Reply'] };
const ANSWER_TEXT: Record<string, [string, string]> = { accepted: ['接受', 'Accepted'], declined: ['拒绝', 'Declined'], tentative: ['暂定', 'Tentative'] };

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * An iTIP object as iMIP mail (RFC 6047): a text and an HTML part anyone can read, and the
 * text/calendar; method=… part a calendar acts on (nodemailer's `icalEvent` makes it the last
 * alternative). Signed with the sender's domain key like compose's mail; colleagues get it
 * through local delivery (so their mail rules and the iTIP queue see it), outside addresses
 * through the outbound queue.
 *
 * Durable: `queue` writes the mail to send into the transaction of the event change it
 * announces (cal_itip_out), and `send` delivers one such job later, from the invitation
 * runner: a crash between the event's commit and the mail loses nothing, and a retry
 * sends nothing twice (the outside copies are marked queued in their own commit; the
 * local delivery's commit deletes the job).
 */
export class ItipMailer {
  constructor(private readonly d: ItipMailDeps) {}

  async queue(trx: Db, userId: number, to: string[], method: ItipMethod, ev: ItipSummary, ics: string): Promise<void> {
    if (to.length === 0) return;
    const summary: Record<string, string> = { title: ev.title, start_local: ev.start_local, tz: ev.tz, ...(ev.answer ? { answer: ev.answer } : {}) };
    await repo.addOut(trx, { user_id: userId, method, recipients: to, summary, ics });
  }

  /** Sends one queued job; it is gone once this returns. */
  async send(me: SenderProfile, job: repo.OutJob): Promise<void> {
    const method = job.method as ItipMethod;
    const ev = job.summary as unknown as ItipSummary;
    const to = job.recipients;
    const when = `${ev.start_local.slice(0, 16).replace('T', ' ')} (${ev.tz})`;
    const [zh, en] = method === 'REPLY' ? ANSWER_TEXT[ev.answer ?? ''] ?? SUBJECT.REPLY : SUBJECT[method];
    const lines = [`${zh} ${en}: ${ev.title}`, when, `${me.name} <${me.email}>`];
    let raw = await composeMime({
      from: { name: me.name, address: me.email }, to, subject: `${zh} ${en}: ${ev.title} · ${when}`,
      text: `${lines.join('\n')}\n`,
      html: `<p><b>${escape(lines[0]!)}</b></p><p>${escape(when)}</p><p>${escape(lines[2]!)}</p>`,
      icalEvent: { method, content: job.ics },
      messageId: `<${randomBytes(16).toString('hex')}.itip@${me.domain}>`, date: new Date(),
    });
    raw = await dkimSign(raw, { domain: me.domain, selector: me.dkim_selector, privateKey: me.dkim_private_key });
    const resolved = await resolveMany(this.d.db, to);
    const outside = [...resolved].filter(([, r]) => r.targets.length === 0 && !r.hosted).map(([a]) => a);
    if (outside.length > 0 && !job.outside_done) {
      const staged = await this.d.blobs.store.stage(raw);
      try {
        await this.d.db.transaction().execute(async (trx) => {
          // No mailbox holds a copy: the queued jobs alone keep the blob (as system mail does).
          await this.d.blobs.reference(trx, [{ staged, n: 0 }]);
          await outbox.enqueue(trx, outside.map((rcpt) => ({
            messageId: null, senderId: me.id, companyId: me.company_id, blobHash: staged.hash, mailFrom: me.email, rcpt, idempotencyKey: `itip:${job.id}:${rcpt}`,
          })));
          await repo.outsideDone(trx, job.id);
        });
      } finally {
        await this.d.blobs.store.release(staged);
      }
      this.d.onQueued();
    }
    const local = [...resolved.values()].flatMap((r) => r.targets.map((t) => ({ userId: t.userId, folderMid: Number(t.via === 'group' ? SystemFolder.GroupMail : SystemFolder.Inbox) })));
    const unique = [...new Map(local.map((r) => [r.userId, r])).values()];
    if (unique.length > 0) await this.d.ingest.deliver(raw, me.email, unique, undefined, { inCommit: (trx) => repo.deleteOut(trx, job.id) });
    else await repo.deleteOut(this.d.db, job.id);
  }
}
