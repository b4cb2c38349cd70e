import { z } from 'zod';
import { MAIL_STATUSES } from '../constants.js';
import { FORBIDDEN_NAME_CHARS, hasForbiddenNameChar } from '../validators.js';
import { flag, folderId, idList, mailId, page, Paged, size } from './common.js';

export const Folder = z.object({
  mid: z.string(),
  name: z.string(),
  parent: z.string().optional(),
  count: z.number().int(),
  total: z.number().int(),
});
export type Folder = z.infer<typeof Folder>;

export const MboxIndex = z.object({ system: z.array(Folder), custom: z.array(Folder) });
export type MboxIndex = z.infer<typeof MboxIndex>;

export const Address = z.object({ name: z.string(), address: z.string() });
export type Address = z.infer<typeof Address>;

export const MailStatus = z.enum(MAIL_STATUSES);
export type MailStatus = z.infer<typeof MailStatus>;

export const MailSummary = z.object({
  id: z.string(),
  mid: z.string(),
  subject: z.string(),
  from: Address,
  to: z.array(Address),
  date: z.number().int(),
  size: z.number().int(),
  status: MailStatus,
  read: z.boolean(),
  star: z.boolean(),
  urgent: z.boolean(),
  hasAttach: z.boolean(),
  tags: z.array(z.string()),
  snippet: z.string(),
  /** Unix seconds a timed send goes out at, while it waits; otherwise null. */
  sendAt: z.number().int().nullable(),
  /** The sender is one of this mailbox's important contacts. */
  fromImportant: z.boolean(),
  /**
   * Only on a conversation row (mail/list with view=conv or auto, issue 14): the row stands
   * for its conversation, shown by its newest mail in the folder (this row's other fields).
   */
  conv: z.object({
    id: z.string(),
    /** Mails in the conversation: all outside Drafts, Spam and Deleted (in those two, the ones there). */
    count: z.number().int(),
    /** Unread mails of the conversation in this folder. */
    unread: z.number().int(),
    /** Senders, in the order they joined (up to 5). */
    participants: z.array(Address),
  }).optional(),
  /** The sender's directory photo when the sender is a member of the reader's company (issue 14); otherwise null. */
  fromAvatar: z.string().nullable(),
});
export type MailSummary = z.infer<typeof MailSummary>;

export const Attachment = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  inline: z.boolean(),
});
export type Attachment = z.infer<typeof Attachment>;

/** The outcome for one recipient of a sent mail. */
export const Delivery = z.object({
  address: z.string(),
  /** local: a mailbox on this server; external: delivered over SMTP to another server. */
  kind: z.enum(['local', 'external']),
  status: z.enum(['sending', 'sent', 'send_failed', 'recalled', 'audit_waiting']),
  /** The remote server's last answer when it failed or is being retried. */
  error: z.string(),
  attempts: z.number().int(),
  updatedAt: z.number().int(),
});
export type Delivery = z.infer<typeof Delivery>;

/** Another mail of the same conversation, for the read page. */
export const ThreadItem = z.object({
  id: z.string(), mid: z.string(), subject: z.string(), from: Address, date: z.number().int(), status: MailStatus,
});
export type ThreadItem = z.infer<typeof ThreadItem>;

/**
 * Sender authentication of a mail that came in from another server (SPF, DKIM,
 * DMARC). verdict: pass, the From domain is authenticated; fail, it is not and may
 * be forged; none, nothing to tell either way.
 */
export const MailAuth = z.object({
  external: z.boolean(),
  verdict: z.enum(['pass', 'fail', 'none']),
  spf: z.string(),
  dkim: z.string(),
  dmarc: z.string(),
});
export type MailAuth = z.infer<typeof MailAuth>;

export const Mail = MailSummary.extend({
  cc: z.array(Address),
  bcc: z.array(Address),
  replyTo: z.array(Address),
  html: z.string(),
  text: z.string(),
  attachments: z.array(Attachment),
  note: z.string(),
  messageId: z.string(),
  /** True when the HTML had remote images that are held back until allowed. */
  remoteImages: z.boolean(),
  imagesShown: z.boolean(),
  prevId: z.string().nullable(),
  nextId: z.string().nullable(),
  /** Per-recipient outcome; only a sent copy has entries. */
  deliveries: z.array(Delivery),
  /** Other mails of this mailbox in the same conversation, oldest first. */
  thread: z.array(ThreadItem),
  /** Only for mail that came in through MX; mail between this server's own users has none. */
  auth: MailAuth.optional(),
});
export type Mail = z.infer<typeof Mail>;

export const MailListQuery = z.object({ mid: folderId, page, size });
export type MailListQuery = z.infer<typeof MailListQuery>;
export const MailList = Paged(MailSummary).extend({
  /** True when the rows are conversations (view=conv, or auto with the setting on). */
  conversations: z.boolean().optional(),
});
export type MailList = z.infer<typeof MailList>;

export const ReadQuery = z.object({ mid: mailId, images: flag.optional() });
export type ReadQuery = z.infer<typeof ReadQuery>;

export const IdsInput = z.object({ ids: idList });
export const MarkReadInput = z.object({ ids: idList, read: flag });
export const StarInput = z.object({ ids: idList, star: flag });
export const MoveInput = z.object({ ids: idList, to: folderId });
export const FolderInput = z.object({ mid: folderId });
export const Changed = z.object({ changed: z.number().int() });
export type Changed = z.infer<typeof Changed>;

/** A folder name with a character mail clients cannot store (its own reason code, schema-reasons.ts). */
export const FolderNameCharsMessage = `Folder name may not contain ${FORBIDDEN_NAME_CHARS.join(' ')}`;

export const FolderName = z.string({ error: 'is required' }).trim()
  .min(1, 'Folder name must not be empty')
  .max(64, 'Folder name is at most 64 characters')
  .refine((n) => !hasForbiddenNameChar(n), FolderNameCharsMessage);

export const CreateFolderInput = z.object({ name: FolderName, parent: folderId.optional().or(z.literal('').transform(() => undefined)) });
export type CreateFolderInput = z.infer<typeof CreateFolderInput>;

export const AttachQuery = z.object({ id: z.string().regex(/^\d{1,15}\.\d{1,4}$/, 'is not a valid attachment id'), inline: flag.optional() });
export const InlineQuery = z.object({ mid: mailId, cid: z.string().min(1).max(998) });
export const ImageProxyQuery = z.object({ mid: mailId, url: z.string().url().max(4096) });

/** One mail of a stacked conversation (read/conversation): a list row plus its Cc. */
export const ConversationMail = MailSummary.extend({ cc: z.array(Address) });
export type ConversationMail = z.infer<typeof ConversationMail>;
export const ConversationQuery = z.object({ mid: mailId });
/** A conversation's mails, oldest first (the newest 100). */
export const Conversation = z.object({ id: z.string(), list: z.array(ConversationMail) });
export type Conversation = z.infer<typeof Conversation>;

/** Conversation actions (issue 14): `ids` are conversation ids; `from` is the folder the list shows. */
export const ConvIdsInput = z.object({ ids: idList, from: folderId.optional().or(z.literal('').transform(() => undefined)) });
export const ConvReadInput = ConvIdsInput.extend({ read: flag });
export const ConvStarInput = ConvIdsInput.extend({ star: flag });
export const ConvMoveInput = ConvIdsInput.extend({ to: folderId });
