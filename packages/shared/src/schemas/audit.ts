import { z } from 'zod';
import { flag, mailId, page, size } from './common.js';
import { Mail } from './mail.js';

// Issue 17, scope 4 (outgoing-mail audit) and scope 6 (company block/allow lists).

export const AUDIT_RULE_KINDS = ['member', 'department', 'keyword', 'size', 'domain', 'external', 'all'] as const;
export const AUDIT_KEYWORD_FIELDS = ['subject', 'body', 'attachment'] as const;
export const AUDIT_REASON_MAX = 500;
/** Default and bounds of a rule's timeout, in minutes (30 days at most). */
export const AUDIT_TIMEOUT_DEFAULT_MIN = 1440;
export const AUDIT_TIMEOUT_MAX_MIN = 43_200;
/** How long a link in an auditor's notification mail works. */
export const AUDIT_LINK_TTL_S = 72 * 3600;

const id = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid id');
const ids = z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v), z.array(id).max(500));
const words = z.preprocess((v) => (typeof v === 'string' ? v.split(/[,，\n]/).map((s) => s.trim()).filter(Boolean) : v), z.array(z.string().min(1).max(100)).max(200));

export const AuditRuleParams = z.object({
  userIds: ids.optional(),
  departmentIds: ids.optional(),
  keywords: words.optional(),
  fields: z.array(z.enum(AUDIT_KEYWORD_FIELDS)).optional(),
  minBytes: z.coerce.number().int().min(1).max(1_000_000_000).optional(),
  domains: words.optional(),
});
export type AuditRuleParams = z.infer<typeof AuditRuleParams>;

/** A rule's condition as the server answers it: plain lists (the input's preprocessing cannot encode a response). */
export const AuditRuleParamsOut = z.object({
  userIds: z.array(z.string()).optional(), departmentIds: z.array(z.string()).optional(), keywords: z.array(z.string()).optional(),
  fields: z.array(z.enum(AUDIT_KEYWORD_FIELDS)).optional(), minBytes: z.number().optional(), domains: z.array(z.string()).optional(),
});
export const AuditRule = z.object({
  id: z.string(), name: z.string(), kind: z.enum(AUDIT_RULE_KINDS), params: AuditRuleParamsOut,
  auditors: z.array(z.object({ id: z.string(), email: z.string(), name: z.string() })),
  timeoutMin: z.number().int(), onTimeout: z.enum(['pass', 'reject']), enabled: z.boolean(),
});
export type AuditRule = z.infer<typeof AuditRule>;
export const AuditRuleList = z.object({ list: z.array(AuditRule) });
export type AuditRuleList = z.infer<typeof AuditRuleList>;

export const AuditRuleInput = z.object({
  id: id.optional(),
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(60),
  kind: z.enum(AUDIT_RULE_KINDS, { error: 'is not a rule kind' }),
  params: z.preprocess((v) => (typeof v === 'string' ? JSON.parse(v || '{}') : v ?? {}), AuditRuleParams),
  auditors: ids.pipe(z.array(id).min(1, 'name at least one auditor')),
  timeoutMin: z.coerce.number().int().min(1).max(AUDIT_TIMEOUT_MAX_MIN).default(AUDIT_TIMEOUT_DEFAULT_MIN),
  onTimeout: z.enum(['pass', 'reject']).default('pass'),
  enabled: flag.default(true),
});
export type AuditRuleInput = z.infer<typeof AuditRuleInput>;

export const AUDIT_STATES = ['waiting', 'auditing', 'passed', 'rejected', 'withdrawn'] as const;
export const HeldMail = z.object({
  id: z.string(), mid: z.string(), state: z.enum(AUDIT_STATES), subject: z.string(), from: z.object({ name: z.string(), address: z.string() }),
  to: z.array(z.string()), size: z.number(), heldAt: z.number(), dueAt: z.number(), onTimeout: z.enum(['pass', 'reject']),
  rules: z.array(z.string()), reason: z.string().nullable(), decidedAt: z.number().nullable(),
});
export type HeldMail = z.infer<typeof HeldMail>;
export const HeldQuery = z.object({ open: flag.default(true), page, size });
export const HeldList = z.object({ list: z.array(HeldMail), total: z.number().int(), page: z.number().int(), size: z.number().int() });
export type HeldList = z.infer<typeof HeldList>;
export const HeldPreview = z.object({ item: HeldMail, mail: Mail });
export type HeldPreview = z.infer<typeof HeldPreview>;

export const AuditDecideInput = z.object({
  id, action: z.enum(['pass', 'reject']),
  reason: z.string().trim().max(AUDIT_REASON_MAX).default(''),
});
export type AuditDecideInput = z.infer<typeof AuditDecideInput>;
export const AuditDecided = z.object({ state: z.enum(AUDIT_STATES) });

export const AuditLinkQuery = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not a valid link') });
export const AuditLinkInput = AuditLinkQuery.extend({ reason: z.string().trim().max(AUDIT_REASON_MAX).default('') });
export const AuditLinkView = z.object({ action: z.enum(['pass', 'reject']), item: HeldMail, text: z.string() });
export type AuditLinkView = z.infer<typeof AuditLinkView>;

export const SentAuditQuery = z.object({ mid: mailId });
export const SentAudit = z.object({ state: z.enum(AUDIT_STATES), reason: z.string().nullable(), decidedAt: z.number().nullable(), dueAt: z.number() });
export type SentAudit = z.infer<typeof SentAudit>;

export const AuditLogEntry = z.object({ id: z.string(), itemId: z.string(), action: z.string(), actor: z.string().nullable(), via: z.string(), reason: z.string().nullable(), at: z.number(), subject: z.string() });
export const AuditLogList = z.object({ list: z.array(AuditLogEntry) });
export type AuditLogList = z.infer<typeof AuditLogList>;

// ---- company block/allow lists ----

export const LIST_KINDS = ['block', 'allow'] as const;
export const CompanyListEntry = z.object({ id: z.string(), kind: z.enum(LIST_KINDS), pattern: z.string(), note: z.string(), createdAt: z.number() });
export type CompanyListEntry = z.infer<typeof CompanyListEntry>;
export const CompanyList = z.object({ list: z.array(CompanyListEntry) });
export type CompanyList = z.infer<typeof CompanyList>;
export const CompanyListAddInput = z.object({
  kind: z.enum(LIST_KINDS, { error: 'is block or allow' }), pattern: z.string({ error: 'is required' }).trim().min(1, 'is required').max(320), note: z.string().trim().max(200).default(''),
});
export const CompanyListImportInput = z.object({ csv: z.string({ error: 'is required' }).max(2_000_000) });
export const CompanyListImported = z.object({ added: z.number().int(), errors: z.array(z.object({ line: z.number().int(), message: z.string(), reason: z.string() })) });
export type CompanyListImported = z.infer<typeof CompanyListImported>;
export const CompanyListTestQuery = z.object({ address: z.string().trim().max(320).default(''), ip: z.string().trim().max(64).default('') });
export const CompanyListTest = z.object({ result: z.enum(['block', 'allow', 'none']), entry: CompanyListEntry.nullable() });
export type CompanyListTest = z.infer<typeof CompanyListTest>;
