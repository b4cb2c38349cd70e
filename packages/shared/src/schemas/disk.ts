import { z } from 'zod';
import { idList, page, Paged, size } from './common.js';

// The network disk (issue 18, scope 3). Spec §5 and §9: a file is at most 2G, and a
// name may not contain / ? : * " < > |. Texts here are the English of the refusals;
// the client shows its own zh/en text keyed by reason code.

/** Spec §9 "Network-disk single file 2G". */
export const DISK_MAX_FILE_BYTES = 2 * 1024 ** 3;
export const DISK_NAME_MAX = 255;
/** Wrong share passwords before a link locks. */
export const SHARE_MAX_TRIES = 5;
export const SHARE_DAYS = [1, 7, 30, 0] as const;

export const DiskMessages = {
  badName: 'File names may not contain / ? : * " < > |',
  emptyName: 'Name must not be empty',
  tooLarge: 'File too large',
  quota: 'Not enough storage space',
  nameTaken: 'A file or folder with this name already exists here',
  moveIntoSelf: 'A folder cannot be moved into itself',
  checksum: 'The file arrived damaged (sha256 mismatch); upload it again',
  shareDays: 'must be 1, 7, 30 or 0 (never)',
  badPassword: 'Wrong password',
  locked: 'Too many wrong passwords; this link is locked',
  expired: 'This link has expired',
} as const;

/** Reason codes of disk refusals (API.md: once published, they keep their meaning). */
export const DiskReasons = {
  badName: 'disk.name_forbidden',
  emptyName: 'disk.name_empty',
  tooLarge: 'disk.too_large',
  quota: 'disk.quota_exceeded',
  nameTaken: 'disk.name_taken',
  moveIntoSelf: 'disk.move_into_self',
  checksum: 'disk.checksum_mismatch',
  badPassword: 'share.bad_password',
  locked: 'share.locked',
  expired: 'share.expired',
} as const;

const diskId = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid id');
const optionalDiskId = diskId.optional().or(z.literal('').transform(() => undefined));
const name = z.string({ error: 'is required' }).max(DISK_NAME_MAX, `at most ${DISK_NAME_MAX} characters`);

export const DiskNode = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  folder: z.boolean(),
  name: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  deletedAt: z.number().int().nullable(),
});
export type DiskNode = z.infer<typeof DiskNode>;

export const DiskListQuery = z.object({ parent: optionalDiskId, page, size });
export const DiskList = Paged(DiskNode).extend({ path: z.array(z.object({ id: z.string(), name: z.string() })) });
export type DiskList = z.infer<typeof DiskList>;
export const DiskBinQuery = z.object({ page, size });
export const DiskBinList = Paged(DiskNode);
export type DiskBinList = z.infer<typeof DiskBinList>;

export const DiskCreateFolderInput = z.object({ parent: optionalDiskId, name });
export const DiskRenameInput = z.object({ id: diskId, name });
export const DiskMoveInput = z.object({ ids: idList, parent: optionalDiskId });
export const DiskIdsInput = z.object({ ids: idList });
export const DiskIdQuery = z.object({ id: diskId, inline: z.enum(['0', '1']).optional() });
export const DiskChanged = z.object({ changed: z.number().int() });

/** One owner of "how much does this user use and may use": mail and disk share the quota. */
export const DiskUsage = z.object({
  quotaBytes: z.number().int(),
  usedBytes: z.number().int(),
  mailBytes: z.number().int(),
  diskBytes: z.number().int(),
  reservedBytes: z.number().int(),
});
export type DiskUsage = z.infer<typeof DiskUsage>;

export const ShareCreateInput = z.object({
  id: diskId,
  days: z.coerce.number().int().refine((d) => (SHARE_DAYS as readonly number[]).includes(d), DiskMessages.shareDays).default(7),
  password: z.string().max(64, 'at most 64 characters').optional().or(z.literal('').transform(() => undefined)),
});
export const Share = z.object({
  id: z.string(),
  nodeId: z.string(),
  name: z.string(),
  token: z.string(),
  expiresAt: z.number().int().nullable(),
  hasPassword: z.boolean(),
});
export type Share = z.infer<typeof Share>;
export const ShareIdInput = z.object({ id: diskId });

const shareToken = z.string({ error: 'is required' }).regex(/^[A-Za-z0-9_-]{20,64}$/, 'is not a valid link');
export const ShareInfoQuery = z.object({ s: shareToken });
export const ShareInfo = z.object({ name: z.string(), size: z.number().int(), expiresAt: z.number().int().nullable(), needsPassword: z.boolean() });
export type ShareInfo = z.infer<typeof ShareInfo>;
export const ShareDownloadInput = z.object({ s: shareToken, password: z.string().max(64).optional() });
