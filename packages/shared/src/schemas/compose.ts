import { z } from 'zod';
import { UPLOAD_MAX_FILES } from '../constants.js';
import { parseAddress, splitAddresses } from '../validators.js';
import { Address } from './mail.js';
import { flag, mailId } from './common.js';

// Compose and send (API.md: write/upload, write/draft, write/send, write/recall).
// Error texts follow spec §5; the client shows its own translation of each.

export const ComposeMessages = {
  noRecipient: 'Add at least one recipient',
  badAddress: 'is not a valid mailbox address',
  emptySubject: 'Mail subject must not be empty',
  sendAtPast: 'Timed send must not be earlier than now',
  emptyReply: 'Reply must not be empty',
  tooManyFiles: 'Exceeds the maximum number of files',
  fileTooLarge: 'File too large',
  totalTooLarge: 'Total size too large',
  badFormat: 'Check the file format',
  badFileName: 'File names may not contain / ? : * " < > |',
} as const;

/** "a@x, B <b@y>" or ["a@x", …] → parsed addresses; every one must be valid. */
export const AddressList = z.preprocess((v) => {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return splitAddresses(v);
  return v;
}, z.array(z.string().max(320)).max(500, 'at most 500 recipients')).transform((list, ctx) => {
  const out: Address[] = [];
  for (const item of list) {
    const parsed = parseAddress(item);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: `${item} ${ComposeMessages.badAddress}` });
      return z.NEVER;
    }
    if (!out.some((a) => a.address === parsed.address)) out.push(parsed);
  }
  return out;
});

/**
 * A draft's recipients may still be half typed: valid ones are parsed, and the rest
 * are kept as typed (address = the text, `typed: true`) so reopening the draft loses nothing.
 */
export const DraftAddressList = z.preprocess((v) => {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return splitAddresses(v);
  return v;
}, z.array(z.string().max(320)).max(500, 'at most 500 recipients')).transform((list) => {
  const out: (Address & { typed?: true })[] = [];
  for (const item of list) {
    const parsed = parseAddress(item);
    const entry = parsed ?? { name: '', address: item.trim(), typed: true as const };
    if (!out.some((a) => a.address === entry.address)) out.push(entry);
  }
  return out;
});

/** Upload ids ("12") and attachments of the caller's own mails ("<mailId>.<index>", as in attach/download). */
export const attachIdList = z.preprocess((v) => {
  if (v === undefined || v === null || v === '') return [];
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  return v;
}, z.array(z.string().regex(/^\d{1,15}(\.\d{1,4})?$/, 'is not a valid attachment id')).max(UPLOAD_MAX_FILES, ComposeMessages.tooManyFiles));

const optionalMailId = mailId.optional().or(z.literal('').transform(() => undefined));
const sendAt = z.preprocess((v) => (v === '' || v === '0' || v === 0 || v === null ? undefined : v),
  // Bounded so that a date is always representable (9e15 used to reach the database as an invalid time).
  z.coerce.number({ error: 'must be unix seconds' }).int().positive().max(4_102_444_800, 'must be a time before 2100').optional());

const composeFields = {
  to: AddressList,
  cc: AddressList,
  bcc: AddressList,
  subject: z.string().max(998, 'at most 998 characters').default(''),
  html: z.string().max(5 * 1024 * 1024, 'the text is too long').default(''),
  text: z.string().max(5 * 1024 * 1024, 'the text is too long').default(''),
  attachIds: attachIdList,
  urgent: flag.default(false),
  sendAt,
  draftId: optionalMailId,
  replyTo: optionalMailId,
  forwardOf: optionalMailId,
};

/** A draft may be incomplete: nothing is required, and recipients may be half typed. */
export const DraftInput = z.object({ ...composeFields, to: DraftAddressList, cc: DraftAddressList, bcc: DraftAddressList });
export type DraftInput = z.infer<typeof DraftInput>;

export const SendInput = z.object({
  ...composeFields,
  /** Hold the mail for the sender's undo window (setting/undo-send) before anything leaves; write/undo takes it back. */
  undo: flag.default(false),
}).superRefine((v, ctx) => {
  if (v.to.length + v.cc.length + v.bcc.length === 0) ctx.addIssue({ code: 'custom', path: ['to'], message: ComposeMessages.noRecipient });
  if (v.subject.trim() === '') ctx.addIssue({ code: 'custom', path: ['subject'], message: ComposeMessages.emptySubject });
});
export type SendInput = z.infer<typeof SendInput>;

export const SavedDraft = z.object({ id: z.string() });
export type SavedDraft = z.infer<typeof SavedDraft>;

export const SendResult = z.object({
  id: z.string(),
  /** Unix seconds of a timed send, or null when it went out now. */
  sendAt: z.number().int().nullable(),
  status: z.enum(['sending', 'sent', 'audit_waiting']),
  /** Unix milliseconds until which write/undo can take the mail back, or null when it was not held. */
  undoUntil: z.number().int().nullable().default(null),
});
export type SendResult = z.infer<typeof SendResult>;

export const UploadResult = z.object({ id: z.string(), name: z.string(), size: z.number().int(), contentType: z.string() });
export type UploadResult = z.infer<typeof UploadResult>;

export const ComposeLimits = z.object({
  maxFiles: z.number().int(),
  maxFileBytes: z.number().int(),
  maxTotalBytes: z.number().int(),
  /** Extensions refused as attachments (lowercase, without the dot). */
  blockedExtensions: z.array(z.string()),
});
export type ComposeLimits = z.infer<typeof ComposeLimits>;

export const ComposeMode = z.enum(['edit', 'reply', 'replyAll', 'forward']);
export type ComposeMode = z.infer<typeof ComposeMode>;
export const LoadComposeQuery = z.object({
  mid: mailId,
  mode: ComposeMode.default('edit'),
  /** Language of the quote header ("On … wrote:"); defaults to the mailbox's language. */
  lang: z.enum(['zh', 'en']).optional(),
  /** The writer's time zone as minutes east of UTC (-getTimezoneOffset()), for dates in the quote. */
  tz: z.coerce.number().int().min(-840).max(840).optional(),
});

/** What the compose page starts from: a draft to continue, or a reply or forward to write. */
export const ComposeData = z.object({
  to: z.array(Address),
  cc: z.array(Address),
  bcc: z.array(Address),
  subject: z.string(),
  html: z.string(),
  attachments: z.array(UploadResult),
  urgent: z.boolean(),
  sendAt: z.number().int().nullable(),
  draftId: z.string().nullable(),
  replyTo: z.string().nullable(),
  forwardOf: z.string().nullable(),
});
export type ComposeData = z.infer<typeof ComposeData>;

export const SuggestQuery = z.object({ q: z.string().trim().max(100).default('') });
export const Suggestions = z.object({ list: z.array(Address) });
export type Suggestions = z.infer<typeof Suggestions>;

export const MailIdInput = z.object({ mid: mailId });
export const UploadQuery = z.object({ id: z.string().regex(/^\d{1,15}$/, 'is not a valid upload id') });

export const RecallResult = z.object({
  results: z.array(z.object({ address: z.string(), result: z.enum(['recalled', 'read', 'external']) })),
});
export type RecallResult = z.infer<typeof RecallResult>;
