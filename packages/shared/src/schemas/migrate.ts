import { z } from 'zod';
import { CollectTls, collectId } from './collect.js';
import { InputMessages } from './common.js';

// Mail migration from another IMAP server (issue 17, scope 8): admin console only.

export interface MigratePreset { id: string; host: string; port: number; tls: CollectTls }

/** The providers' published IMAP settings; the admin may still enter any host. */
export const MIGRATE_PRESETS: readonly MigratePreset[] = [
  { id: 'exmail', host: 'imap.exmail.qq.com', port: 993, tls: 'tls' },
  { id: 'qiye163', host: 'imap.qiye.163.com', port: 993, tls: 'tls' },
  { id: 'aliyun', host: 'imap.qiye.aliyun.com', port: 993, tls: 'tls' },
  { id: 'gmail', host: 'imap.gmail.com', port: 993, tls: 'tls' },
  { id: 'outlook', host: 'outlook.office365.com', port: 993, tls: 'tls' },
  { id: 'qq', host: 'imap.qq.com', port: 993, tls: 'tls' },
  { id: '163', host: 'imap.163.com', port: 993, tls: 'tls' },
  { id: '126', host: 'imap.126.com', port: 993, tls: 'tls' },
];
/** Rows in one CSV upload. */
export const MIGRATE_MAX_ROWS = 2000;

const host = z.string({ error: 'is required' }).trim().min(1, 'is required').max(253, 'is too long')
  .regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/, 'is not a host name');
const server = {
  host,
  port: z.coerce.number({ error: 'must be a number' }).int().min(1).max(65535),
  tls: CollectTls,
};

export const MigrateTestInput = z.object({
  ...server,
  username: z.string({ error: 'is required' }).min(1, 'is required').max(320).refine((v) => ![...v].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f), InputMessages.spaces),
  password: z.string({ error: 'is required' }).min(1, 'is required').max(256).refine((v) => !/[\r\n]/.test(v) && !v.includes('\u0000'), InputMessages.lineBreaks),
});
export const MigrateTestResult = z.object({ folders: z.array(z.object({ name: z.string(), target: z.string(), messages: z.number().int() })) });
export type MigrateTestResult = z.infer<typeof MigrateTestResult>;

/** CSV: old address, old password (or app password), new mailbox; a header line is allowed. */
export const MigrateImportInput = z.object({ ...server, csv: z.string({ error: 'is required' }).min(1, 'is required').max(2_000_000, 'is too long') });
export const MigrateImportResult = z.object({
  created: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), reason: z.string() })),
});
export type MigrateImportResult = z.infer<typeof MigrateImportResult>;

export const MigrateState = z.enum(['queued', 'running', 'done', 'failed']);
export type MigrateState = z.infer<typeof MigrateState>;
const progress = {
  messagesTotal: z.number().int(), bytesTotal: z.number().int(), messagesDone: z.number().int(), bytesDone: z.number().int(),
};
export const MigrateFolder = z.object({ name: z.string(), target: z.string(), state: MigrateState, copied: z.number().int(), ...progress });
export const MigrateAccount = z.object({
  id: z.string(), oldAddress: z.string(), newAddress: z.string(), host: z.string(), state: MigrateState,
  /** A reason code (`migrate.auth`, `migrate.folder_missing`…) when failed. */
  reason: z.string().nullable(), reply: z.string().nullable(), finalise: z.boolean(), finalisedAt: z.string().nullable(),
  runs: z.number().int(), copiedMessages: z.number().int(), copiedBytes: z.number().int(), ...progress,
});
export type MigrateAccount = z.infer<typeof MigrateAccount>;
export const MigrateList = z.object({ list: z.array(MigrateAccount) });
export type MigrateList = z.infer<typeof MigrateList>;
export const MigrateDetail = z.object({ account: MigrateAccount, folders: z.array(MigrateFolder) });
export type MigrateDetail = z.infer<typeof MigrateDetail>;
export const MigrateIdInput = z.object({ id: collectId });
/** Without an id: every account of the company. */
export const MigrateRerunInput = z.object({ id: collectId.optional() });
export const MigrateQueued = z.object({ queued: z.number().int() });
