import { z } from 'zod';
import { flag, folderId, InputMessages } from './common.js';

// Collecting mail from other mailboxes over POP3 / IMAP (issue 16, scope 5).

export const CollectProtocol = z.enum(['pop3', 'imap']);
export type CollectProtocol = z.infer<typeof CollectProtocol>;
export const CollectTls = z.enum(['tls', 'starttls', 'none']);
export type CollectTls = z.infer<typeof CollectTls>;
export const COLLECT_INTERVAL_MIN = 5;
export const COLLECT_INTERVAL_MAX = 60;
/** Consecutive authentication failures after which an account stops being tried. */
export const COLLECT_PAUSE_AFTER_AUTH_FAILURES = 5;
export const COLLECT_MAX_ACCOUNTS = 20;

export interface CollectPreset { id: string; pop3: { host: string; port: number; tls: CollectTls }; imap: { host: string; port: number; tls: CollectTls } }

/** The providers' published settings; the user can still change every field. */
export const COLLECT_PRESETS: readonly CollectPreset[] = [
  { id: 'qq', pop3: { host: 'pop.qq.com', port: 995, tls: 'tls' }, imap: { host: 'imap.qq.com', port: 993, tls: 'tls' } },
  { id: '163', pop3: { host: 'pop.163.com', port: 995, tls: 'tls' }, imap: { host: 'imap.163.com', port: 993, tls: 'tls' } },
  { id: '126', pop3: { host: 'pop.126.com', port: 995, tls: 'tls' }, imap: { host: 'imap.126.com', port: 993, tls: 'tls' } },
  { id: 'gmail', pop3: { host: 'pop.gmail.com', port: 995, tls: 'tls' }, imap: { host: 'imap.gmail.com', port: 993, tls: 'tls' } },
  { id: 'outlook', pop3: { host: 'outlook.office365.com', port: 995, tls: 'tls' }, imap: { host: 'outlook.office365.com', port: 993, tls: 'tls' } },
  { id: 'exmail', pop3: { host: 'pop.exmail.qq.com', port: 995, tls: 'tls' }, imap: { host: 'imap.exmail.qq.com', port: 993, tls: 'tls' } },
];

// Host names and logins go onto protocol command lines: no spaces, controls or line breaks.
const host = z.string({ error: 'is required' }).trim().min(1, 'is required').max(253, 'is too long')
  .regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/, 'is not a host name');
const hasControl = (v: string) => [...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const login = z.string({ error: 'is required' }).min(1, 'is required').max(320, 'is too long')
  .refine((v) => !/\s/.test(v) && !hasControl(v), InputMessages.spacesOrControls);
// A password may hold spaces, never a line break or NUL (it goes on a POP3 PASS line).
const password = z.string().max(256, 'is too long').refine((v) => !/[\r\n]/.test(v) && !v.includes('\u0000'), InputMessages.lineBreaks);

const fields = {
  protocol: CollectProtocol,
  host,
  port: z.coerce.number({ error: 'must be a number' }).int().min(1).max(65535),
  tls: CollectTls,
  username: login,
  leaveCopy: flag.default(true),
  folder: folderId.default('0'),
  interval: z.coerce.number({ error: 'must be a number' }).int().min(COLLECT_INTERVAL_MIN).max(COLLECT_INTERVAL_MAX).default(15),
};

export const CreateCollectInput = z.object({ ...fields, password: password.min(1, 'is required') });
export const collectId = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid id');
/** An update may leave out the password (kept as it is); a new one resumes a paused account. */
export const UpdateCollectInput = z.object({ id: collectId, ...fields, password: password.optional() });
export const CollectIdInput = z.object({ id: collectId });
export const TestCollectInput = z.object({ id: collectId.optional(), ...fields, password: password.optional() });

export const CollectStatus = z.object({
  lastRunAt: z.string().nullable(),
  lastCount: z.number().int(),
  lastBytes: z.number().int(),
  totalCount: z.number().int(),
  errorKind: z.enum(['auth', 'tls', 'dns', 'timeout', 'protocol', 'network', 'address']).nullable(),
  errorReply: z.string().nullable(),
  paused: z.boolean(),
  authFailures: z.number().int(),
  running: z.boolean(),
});
export const CollectAccount = z.object({
  id: z.string(), protocol: CollectProtocol, host: z.string(), port: z.number().int(), tls: CollectTls, username: z.string(),
  leaveCopy: z.boolean(), folder: z.string(), interval: z.number().int(), status: CollectStatus,
});
export type CollectAccount = z.infer<typeof CollectAccount>;
export const CollectList = z.object({ list: z.array(CollectAccount) });
export type CollectList = z.infer<typeof CollectList>;
export const CollectTestResult = z.object({ ok: z.literal(true), messages: z.number().int() });
