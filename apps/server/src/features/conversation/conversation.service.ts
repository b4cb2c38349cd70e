import { SystemFolder, type Address, type Conversation, type MailSummary } from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import type { MailboxService } from '../mailbox/mailbox.service.js';
import * as messages from '../message/message.repository.js';
import { toSummary, type MessageService } from '../message/message.service.js';
import * as repo from './conversation.repository.js';

const SENT = Number(SystemFolder.Sent);
const SPAM = Number(SystemFolder.Spam);
const DELETED = Number(SystemFolder.Deleted);

type Locked = Awaited<ReturnType<typeof repo.lockConversations>>[number];

/** A conversation row of a list: its newest mail in the folder, with the conversation's facts. */
export function toConversationSummary(r: repo.ConversationRow): MailSummary {
  return {
    ...toSummary(r, r.tags),
    read: r.conv_unread === 0,
    star: r.conv_star,
    conv: { id: String(r.conv_id), count: r.conv_count, unread: r.conv_unread, participants: r.participants },
  };
}

/**
 * Conversations (issue 14, scope 2): a conversation's mails for the stacked read page,
 * and actions on whole conversations. Which mails an action takes follows what the row
 * showed (conversation.repository.ts): opened from Spam or Deleted, the conversation's
 * mails there; elsewhere its mails outside Drafts, Spam and Deleted. Moving and reporting
 * junk leave the user's own sent copies in Sent, where they belong; deleting takes them too.
 */
export class ConversationService {
  constructor(private readonly db: Db, private readonly blobs: BlobService, private readonly mailbox: MailboxService, private readonly mails: MessageService) {}

  async ofMail(userId: number, mailId: string): Promise<Conversation> {
    const at = await repo.conversationOf(this.db, userId, Number(mailId));
    if (!at) throw notFound();
    const rows = await repo.conversationMails(this.db, userId, at.conv_id, at.folder_mid, Number(mailId));
    return {
      id: String(at.conv_id),
      list: rows.map((r) => ({ ...toSummary({ ...r, from_important: false }, r.tags), cc: r.cc_list as Address[] })),
    };
  }

  /** Locks the conversations' mails; one unknown or foreign id refuses the whole batch and changes nothing. */
  private async onConversations<T>(userId: number, ids: string[], from: string | undefined, fn: (trx: Db, rows: Locked[]) => Promise<T>): Promise<T> {
    const wanted = [...new Set(ids.map(Number))];
    const fromMid = from === undefined ? undefined : (await this.mailbox.requireFolder(userId, from)).mid;
    return this.db.transaction().execute(async (trx) => {
      const rows = await repo.lockConversations(trx, userId, wanted);
      if (new Set(rows.map((r) => r.conv_id)).size !== wanted.length) throw notFound('Conversation');
      const separate = fromMid === SPAM || fromMid === DELETED;
      return fn(trx, rows.filter((r) => (separate ? r.folder_mid === fromMid : r.folder_mid !== SPAM && r.folder_mid !== DELETED)));
    });
  }

  async markRead(userId: number, ids: string[], read: boolean, from?: string): Promise<number> {
    return this.onConversations(userId, ids, from, (trx, rows) => messages.setSeen(trx, userId, rows.map((r) => r.id), read));
  }

  async star(userId: number, ids: string[], star: boolean, from?: string): Promise<number> {
    return this.onConversations(userId, ids, from, (trx, rows) => messages.setStar(trx, userId, rows.map((r) => r.id), star));
  }

  async move(userId: number, ids: string[], to: string, from?: string): Promise<number> {
    const folder = await this.mailbox.requireFolder(userId, to);
    return this.onConversations(userId, ids, from, (trx, rows) =>
      messages.moveTo(trx, userId, rows.filter((r) => r.folder_mid !== SENT).map((r) => r.id), folder.mid));
  }

  async remove(userId: number, ids: string[], from?: string): Promise<number> {
    return this.onConversations(userId, ids, from, (trx, rows) => messages.moveTo(trx, userId, rows.map((r) => r.id), DELETED));
  }

  async junk(userId: number, ids: string[], from?: string): Promise<number> {
    return this.onConversations(userId, ids, from, (trx, rows) => messages.moveTo(trx, userId, rows.filter((r) => r.folder_mid !== SENT).map((r) => r.id), SPAM));
  }

  /** Permanent delete of a conversation's mails in Deleted or Spam (the folder given as `from`). */
  async purge(userId: number, ids: string[], from?: string): Promise<number> {
    if (from !== String(DELETED) && from !== String(SPAM)) throw invalid('from', 'Only mail in Deleted or Spam can be deleted permanently', 'mail.delete_not_allowed');
    const n = await this.onConversations(userId, ids, from, async (trx, rows) => {
      await this.mails.removeRows(trx, rows);
      return rows.length;
    });
    await this.blobs.collect();
    return n;
  }
}
