import { z } from 'zod';
import { flag, folderId, idList, mailId, page, Paged, size } from './common.js';
import { FolderName, MailSummary } from './mail.js';

// Organise and find (issue 5): folder rename/delete, tags, notes, quick filters, search.

export const RenameFolderInput = z.object({ mid: folderId, name: FolderName });
export const DeleteFolderInput = z.object({ mid: folderId });
export const DeletedFolder = z.object({ folders: z.number().int(), moved: z.number().int() });
export type DeletedFolder = z.infer<typeof DeletedFolder>;

const TAG_COLOR = /^#[0-9a-fA-F]{6}$/;
export const TagName = z.string({ error: 'is required' }).trim().min(1, 'Tag name must not be empty').max(32, 'Tag name is at most 32 characters');
export const TagColor = z.string().regex(TAG_COLOR, 'must be a colour like #2086EE');

export const Tag = z.object({ id: z.string(), name: z.string(), color: z.string(), count: z.number().int() });
export type Tag = z.infer<typeof Tag>;
export const TagList = z.object({ list: z.array(Tag) });
export type TagList = z.infer<typeof TagList>;
export const CreateTagInput = z.object({ name: TagName, color: TagColor.default('#2086EE') });
export const UpdateTagInput = z.object({ id: z.string().regex(/^\d{1,15}$/), name: TagName.optional(), color: TagColor.optional() });
export const TagIdInput = z.object({ id: z.string().regex(/^\d{1,15}$/, 'is not a valid tag id') });
export const TagMailInput = z.object({ ids: idList, tag: z.string().regex(/^\d{1,15}$/, 'is not a valid tag id'), on: flag.default(true) });

export const NoteInput = z.object({ mid: mailId, note: z.string().max(2000, 'A note is at most 2,000 characters').default('') });

export const QuickFilter = z.enum(['unread', 'starred', 'urgent', 'attach']);
export type QuickFilter = z.infer<typeof QuickFilter>;

/** mail/list with its optional filters: a quick filter and/or a tag. */
export const FilteredListQuery = z.object({
  mid: folderId,
  page,
  size,
  filter: QuickFilter.optional().or(z.literal('').transform(() => undefined)),
  tag: z.string().regex(/^\d{1,15}$/).optional().or(z.literal('').transform(() => undefined)),
  /**
   * Issue 14: mail (default, one row per mail, as before), conv (one row per conversation),
   * auto (as the mailbox's conversation-view setting says). Quick filters, tags and Drafts
   * always list mails.
   */
  view: z.enum(['mail', 'conv', 'auto']).optional().or(z.literal('').transform(() => undefined)),
});

const unixSeconds = z.coerce.number().int().min(0).optional().or(z.literal('').transform(() => undefined));
export const SearchQuery = z.object({
  q: z.string({ error: 'is required' }).trim().min(1, 'Type something to search for').max(200),
  mid: folderId.optional().or(z.literal('').transform(() => undefined)),
  page,
  size,
  since: unixSeconds,
  until: unixSeconds,
  attach: flag.optional(),
  unread: flag.optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchResult = Paged(MailSummary).extend({
  /** True when there are more matches than `total` counts (counting stops at 1,000). */
  more: z.boolean(),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const AutoArchiveInput = z.object({ days: z.coerce.number().int().min(0).max(3650) });
export const AutoArchive = z.object({ days: z.number().int() });
export type AutoArchive = z.infer<typeof AutoArchive>;
