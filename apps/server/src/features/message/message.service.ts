import { SystemFolder, type Address, type Delivery, type Mail, type MailAuth, type MailList, type MailListQuery, type MailStatus, type MailSummary, type QuickFilter } from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import type { StoredAttachment, StoredAuthResults } from '../../db/types.js';
import { invalid, notFound } from '../../errors.js';
import type { MailboxService } from '../mailbox/mailbox.service.js';
import { presentHtml } from './html-sanitizer.js';
import * as sent from '../compose/compose.repository.js';
import * as repo from './message.repository.js';
import { findTag } from '../tag/tag.repository.js';
import { conversationMails, conversationPage } from '../conversation/conversation.repository.js';
import { toConversationSummary } from '../conversation/conversation.service.js';
import { avatarPath } from '../setting/setting.service.js';

const DELIVERY_STATES = new Set<string>(['sending', 'sent', 'send_failed', 'recalled', 'audit_waiting', 'auditing', 'audit_passed', 'audit_rejected']);

function statusOf(m: { delivery_state: string | null; seen: boolean; answered: boolean; forwarded: boolean }): MailStatus {
  if (m.delivery_state) return DELIVERY_STATES.has(m.delivery_state) ? (m.delivery_state as MailStatus) : 'unknown';
  if (m.answered && m.forwarded) return 'replied_forwarded';
  if (m.answered) return 'replied';
  if (m.forwarded) return 'forwarded';
  return m.seen ? 'read' : 'unread';
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

type DeliveryRow = Awaited<ReturnType<typeof sent.deliveriesOf>>[number];

/** One recipient's outcome: a local copy is delivered at once; an outside one follows its queue job. */
function toDelivery(r: DeliveryRow): Delivery {
  const status = r.recalled ? 'recalled'
    : r.kind === 'local' ? 'sent'
      : r.status === 'sent' ? 'sent' : r.status === 'failed' ? 'send_failed' : r.status === 'held' ? 'audit_waiting' : 'sending';
  return {
    address: r.address, kind: r.kind, status, error: r.status === 'sent' ? '' : (r.last_error ?? ''), attempts: r.attempts ?? 0,
    updatedAt: unix(r.updated_at ?? r.created_at),
  };
}

/** The read page's part of the stored sender authentication (smtp/inbound-auth.ts). */
function authOf(a: StoredAuthResults): MailAuth {
  return { external: a.external, verdict: a.verdict, spf: a.spf, dkim: a.dkim, dmarc: a.dmarc };
}

function toSummary(r: Omit<repo.SummaryRow, 'tags' | 'from_important' | 'from_avatar'> & { from_important?: boolean; from_avatar?: string | null }, tags: string[]): MailSummary {
  return {
    id: String(r.id), mid: String(r.folder_mid), subject: r.subject, from: { name: r.from_name, address: r.from_address },
    to: r.to_list as Address[], date: unix(r.sent_at ?? r.received_at), size: r.size, status: statusOf(r), read: r.seen, star: r.star,
    urgent: r.urgent, hasAttach: r.has_attach, tags, snippet: r.snippet, sendAt: r.send_at ? unix(r.send_at) : null,
    fromImportant: 'from_important' in r ? Boolean(r.from_important) : false,
    fromAvatar: r.from_avatar ? avatarPath(r.from_address, r.from_avatar) : null,
  };
}

export { toSummary };

export class MessageService {
  constructor(private readonly db: Db, private readonly blobs: BlobService, private readonly mailbox: MailboxService) {}

  async list(userId: number, q: MailListQuery & { filter?: QuickFilter; tag?: string; view?: 'mail' | 'conv' | 'auto' }): Promise<MailList> {
    // Someone else's tag id is an unknown id, not an empty filter (issue 12, finding 10).
    if (q.tag !== undefined && !(await findTag(this.db, userId, Number(q.tag)))) throw notFound('Tag');
    const f: repo.ListFilter = { filter: q.filter, tagId: q.tag === undefined ? undefined : Number(q.tag) };
    const mid = Number(q.mid);
    // Conversation rows (issue 14): not for a filtered list (it shows the mails that match) nor for
    // Drafts (a draft opens in the editor). With view=auto the setting is read in the same query.
    const view = q.view ?? 'mail';
    if (view !== 'mail' && f.filter === undefined && f.tagId === undefined && mid !== Number(SystemFolder.Drafts)) {
      const convs = await conversationPage(this.db, userId, mid, q.size, (q.page - 1) * q.size, view === 'auto');
      if (!convs) throw notFound('Folder');
      if (convs.on) return { list: convs.rows.map(toConversationSummary), total: convs.total, page: q.page, size: q.size, conversations: true };
    }
    const page = await repo.folderPage(this.db, userId, mid, q.size, (q.page - 1) * q.size, f);
    if (!page) throw notFound('Folder');
    // The folder's counters answer the plain and the unread list; other filters count.
    const total = f.tagId === undefined && f.filter === undefined ? page.total
      : f.tagId === undefined && f.filter === 'unread' ? page.unread : await repo.countFolder(this.db, userId, mid, f);
    return { list: page.rows.map((r) => toSummary(r, r.tags)), total, page: q.page, size: q.size, ...(view === 'mail' ? {} : { conversations: false }) };
  }

  async setNote(userId: number, id: string, note: string): Promise<void> {
    if ((await repo.setNote(this.db, userId, Number(id), note.trim())) === 0) throw notFound();
  }

  async archive(userId: number, ids: string[]): Promise<number> {
    return this.move(userId, ids, SystemFolder.MailHistory);
  }

  async autoArchiveDays(userId: number): Promise<number> {
    return (await repo.getAutoArchive(this.db, userId)) ?? 0;
  }

  /** 0 turns auto-archive off. */
  async setAutoArchiveDays(userId: number, days: number): Promise<void> {
    await repo.setAutoArchive(this.db, userId, days > 0 ? days : null);
  }

  /** The worker's pass: archives due Inbox mail in batches; returns how many moved. */
  async autoArchiveDue(): Promise<number> {
    let total = 0;
    for (let n = await repo.autoArchive(this.db, 1000); n > 0; n = await repo.autoArchive(this.db, 1000)) total += n;
    return total;
  }

  private async requireMail(userId: number, id: string) {
    const row = await repo.findOne(this.db, userId, Number(id));
    if (!row) throw notFound();
    return row;
  }

  /** Opens a mail: marks it read, and with `images` allows its remote images from now on. */
  async read(userId: number, id: string, opts: { images?: boolean; token: string }): Promise<Mail> {
    const row = await this.requireMail(userId, id);
    if (!row.seen) {
      await repo.setSeen(this.db, userId, [row.id], true);
      row.seen = true;
    }
    if (opts.images && !row.images_allowed) {
      await repo.allowImages(this.db, userId, row.id);
      row.images_allowed = true;
    }
    const [tags, near, deliveries, thread] = await Promise.all([
      repo.tagsOf(this.db, [row.id]), repo.neighbours(this.db, userId, row.folder_mid, row.received_at, row.id),
      row.delivery_state ? sent.deliveriesOf(this.db, row.id) : [], conversationMails(this.db, userId, row.conv_id, row.folder_mid, row.id),
    ]);
    // The state read with the recipients is the one that matches them (compose.repository deliveriesOf).
    if (deliveries[0]) row.delivery_state = deliveries[0].delivery_state;
    const t = encodeURIComponent(opts.token);
    const html = presentHtml(row.html, {
      inlineUrl: (cid) => `/h5/read/inline?mid=${row.id}&cid=${encodeURIComponent(cid)}&t=${t}`,
      proxyUrl: (url) => `/h5/read/image?mid=${row.id}&url=${encodeURIComponent(url)}&t=${t}`,
      showRemote: row.images_allowed,
    });
    const attachments = (row.attachments as StoredAttachment[]).map((a) => ({
      id: `${row.id}.${a.index < 0 ? 9999 : a.index}`, name: a.name, size: a.size, contentType: a.contentType, inline: a.inline,
    }));
    return {
      ...toSummary(row, tags.get(row.id) ?? []),
      cc: row.cc_list as Address[], bcc: row.bcc, replyTo: row.reply_to as Address[], html, text: row.text_body, attachments,
      note: row.note, messageId: row.message_id, remoteImages: row.remote_images, imagesShown: row.images_allowed,
      prevId: near.prev === null ? null : String(near.prev), nextId: near.next === null ? null : String(near.next),
      deliveries: deliveries.map(toDelivery),
      // The other mails of its conversation (issue 14), oldest first.
      thread: thread.filter((t) => t.id !== row.id).map((t) => ({
        id: String(t.id), mid: String(t.folder_mid), subject: t.subject, from: { name: t.from_name, address: t.from_address },
        date: unix(t.sent_at ?? t.received_at), status: statusOf(t),
      })),
      ...(row.auth_results ? { auth: authOf(row.auth_results) } : {}),
    };
  }

  /**
   * Runs a change on a batch that must be wholly the caller's: one foreign or missing
   * id refuses the whole batch with 404 and changes nothing.
   */
  private async onOwned<T>(userId: number, ids: string[], fn: (trx: Db, rows: Awaited<ReturnType<typeof repo.lockOwned>>) => Promise<T>): Promise<T> {
    const wanted = [...new Set(ids.map(Number))];
    return this.db.transaction().execute(async (trx) => {
      const rows = await repo.lockOwned(trx, userId, wanted);
      if (rows.length !== wanted.length) throw notFound();
      return fn(trx, rows);
    });
  }

  async markRead(userId: number, ids: string[], read: boolean): Promise<number> {
    return this.onOwned(userId, ids, (trx, rows) => repo.setSeen(trx, userId, rows.map((r) => r.id), read));
  }

  async markFolderRead(userId: number, mid: string): Promise<number> {
    const folder = await this.mailbox.requireFolder(userId, mid);
    return repo.markFolderRead(this.db, userId, folder.mid);
  }

  async star(userId: number, ids: string[], star: boolean): Promise<number> {
    return this.onOwned(userId, ids, (trx, rows) => repo.setStar(trx, userId, rows.map((r) => r.id), star));
  }

  async move(userId: number, ids: string[], to: string): Promise<number> {
    const folder = await this.mailbox.requireFolder(userId, to);
    return this.onOwned(userId, ids, (trx, rows) => repo.moveTo(trx, userId, rows.map((r) => r.id), folder.mid));
  }

  async remove(userId: number, ids: string[]): Promise<number> {
    return this.move(userId, ids, SystemFolder.Deleted);
  }

  async junk(userId: number, ids: string[]): Promise<number> {
    return this.move(userId, ids, SystemFolder.Spam);
  }

  /** Permanent delete, only from Deleted or Spam; frees blobs no mailbox references any more. */
  async purge(userId: number, ids: string[]): Promise<number> {
    const n = await this.onOwned(userId, ids, async (trx, rows) => {
      const allowed = new Set([Number(SystemFolder.Deleted), Number(SystemFolder.Spam)]);
      if (rows.some((r) => !allowed.has(r.folder_mid))) throw invalid('ids', 'Only mail in Deleted or Spam can be deleted permanently', 'mail.delete_not_allowed');
      await this.removeRows(trx, rows);
      return rows.length;
    });
    await this.blobs.collect();
    return n;
  }

  /**
   * Inside a transaction, after the caller locked and checked the rows: deletes them for
   * good, drops their blob references and any parsed content nobody points at any more.
   * The blobs themselves go at the next collect().
   */
  async removeRows(trx: Db, rows: { id: number; blob_hash: string; content_id: number }[]): Promise<void> {
    if (rows.length === 0) return;
    await repo.deleteRows(trx, rows.map((r) => r.id));
    await this.dropReferences(trx, rows);
  }

  /** Releases what rows pointed at before they were deleted or given new content. */
  async dropReferences(trx: Db, rows: { blob_hash: string; content_id: number }[]): Promise<void> {
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.blob_hash, (counts.get(r.blob_hash) ?? 0) + 1);
    await this.blobs.unreference(trx, counts);
    await repo.deleteOrphanContents(trx, [...new Set(rows.map((r) => r.content_id))]);
  }

  /** The raw message and the stored description of one attachment (index 9999 = the whole original). */
  async attachment(userId: number, attachId: string): Promise<{ raw: Buffer; meta: StoredAttachment }> {
    const [mailId, idx] = attachId.split('.');
    const row = await this.requireMail(userId, mailId ?? '');
    const index = Number(idx) === 9999 ? -1 : Number(idx);
    const meta = (row.attachments as StoredAttachment[]).find((a) => a.index === index);
    if (!meta) throw notFound('Attachment');
    return { raw: await this.blobs.get(row.blob_hash), meta };
  }

  async inlineByCid(userId: number, mailId: string, cid: string): Promise<{ raw: Buffer; meta: StoredAttachment }> {
    const row = await this.requireMail(userId, mailId);
    const meta = (row.attachments as StoredAttachment[]).find((a) => a.cid === cid);
    if (!meta) throw notFound('Attachment');
    return { raw: await this.blobs.get(row.blob_hash), meta };
  }

  /** The remote image URLs a mail holds back; the proxy serves only these. */
  async remoteImageAllowed(userId: number, mailId: string, url: string): Promise<boolean> {
    const row = await this.requireMail(userId, mailId);
    return row.images_allowed && row.html.includes(`data-mw-src="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`);
  }
}
