import { z } from 'zod';
import { Email } from './auth.js';
import { flag, folderId } from './common.js';

// Mail rules (issue 16): filter rules run by the server on delivery, and auto-reply.
//   auth GET  rule/list                      → RuleList
//   auth POST rule/create     RuleInput (JSON) → Rule
//   auth POST rule/update     RuleInput + id   → Rule
//   auth POST rule/delete     RuleIdInput      → Empty
//   auth POST rule/reorder    RuleOrderInput   → RuleList
//   auth POST rule/dry-run    RuleInput        → DryRun   ("matches N of the last 500 mails", nothing saved)
//   auth POST rule/run        RunRuleInput     → RuleJob  (run a saved rule over a folder, in the background)
//   auth GET  rule/job?id=…                    → RuleJob  (progress, polled)
//   auth GET  autoreply/get                    → AutoReply
//   auth POST autoreply/save  AutoReplyInput   → AutoReply

export const RULE_LIMITS = { rules: 50, conditions: 10, actions: 10, valueLength: 200, dryRunMails: 500 } as const;

const ruleId = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid rule id');
const text = z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(RULE_LIMITS.valueLength, `at most ${RULE_LIMITS.valueLength} characters`);

/** Text fields compared as text; `domain` matches the address's domain or a sub-domain of it. */
export const TextField = z.enum(['from', 'to', 'subject', 'body']);
export const TextOp = z.enum(['contains', 'not_contains', 'equals', 'domain']);
const HeaderName = z.string().trim().toLowerCase().regex(/^[a-z0-9-]{1,76}$/, 'is not a header name');

export const RuleCondition = z.discriminatedUnion('field', [
  z.object({ field: TextField, op: TextOp, value: text }),
  z.object({ field: z.literal('header'), name: HeaderName, op: z.enum(['contains', 'not_contains', 'equals', 'exists']), value: z.string().trim().max(RULE_LIMITS.valueLength).default('') }),
  /** Size in KB. */
  z.object({ field: z.literal('size'), op: z.enum(['over', 'under']), value: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000_000) }),
  z.object({ field: z.literal('attachment'), op: z.enum(['yes', 'no']) }),
]);
export type RuleCondition = z.infer<typeof RuleCondition>;

export const RuleAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('move'), folder: folderId }),
  z.object({ type: z.literal('tag'), tag: z.string().regex(/^\d{1,15}$/, 'is not a valid tag id') }),
  z.object({ type: z.literal('read') }),
  z.object({ type: z.literal('star') }),
  z.object({ type: z.literal('forward'), to: Email }),
  z.object({ type: z.literal('delete') }),
  z.object({ type: z.literal('reject'), message: z.string().trim().max(200, 'at most 200 characters').default('') }),
]);
export type RuleAction = z.infer<typeof RuleAction>;

/** The web client posts forms (spec §7): a list travels as a JSON string in its field. */
const jsonList = <T extends z.ZodType>(item: T) => z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}, item);

export const RuleInput = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'Give the rule a name').max(60, 'at most 60 characters'),
  enabled: flag.default(true),
  match: z.enum(['all', 'any']).default('all'),
  conditions: jsonList(z.array(RuleCondition).min(1, 'Add at least one condition').max(RULE_LIMITS.conditions)),
  actions: jsonList(z.array(RuleAction).min(1, 'Add at least one action').max(RULE_LIMITS.actions)),
  stop: flag.default(false),
});
export type RuleInput = z.infer<typeof RuleInput>;
export const UpdateRuleInput = RuleInput.extend({ id: ruleId });
export type UpdateRuleInput = z.infer<typeof UpdateRuleInput>;
export const RuleIdInput = z.object({ id: ruleId });
export const RuleOrderInput = z.object({
  ids: z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(ruleId).min(1).max(RULE_LIMITS.rules)),
});
export const RuleToggleInput = z.object({ id: ruleId, enabled: flag });

// Responses are encoded by the serializer, so their schemas carry no input transforms.
const RuleConditionOut = z.discriminatedUnion('field', [
  z.object({ field: TextField, op: TextOp, value: z.string() }),
  z.object({ field: z.literal('header'), name: z.string(), op: z.enum(['contains', 'not_contains', 'equals', 'exists']), value: z.string() }),
  z.object({ field: z.literal('size'), op: z.enum(['over', 'under']), value: z.number() }),
  z.object({ field: z.literal('attachment'), op: z.enum(['yes', 'no']) }),
]);
const RuleActionOut = z.discriminatedUnion('type', [
  z.object({ type: z.literal('move'), folder: z.string() }),
  z.object({ type: z.literal('tag'), tag: z.string() }),
  z.object({ type: z.literal('read') }),
  z.object({ type: z.literal('star') }),
  z.object({ type: z.literal('forward'), to: z.string() }),
  z.object({ type: z.literal('delete') }),
  z.object({ type: z.literal('reject'), message: z.string() }),
]);
export const Rule = z.object({
  id: z.string(), position: z.number().int(), name: z.string(), enabled: z.boolean(), match: z.enum(['all', 'any']),
  conditions: z.array(RuleConditionOut), actions: z.array(RuleActionOut), stop: z.boolean(),
});
export type Rule = z.infer<typeof Rule>;
export const RuleList = z.object({ list: z.array(Rule) });
export type RuleList = z.infer<typeof RuleList>;

export const DryRun = z.object({ matched: z.number().int(), of: z.number().int() });
export type DryRun = z.infer<typeof DryRun>;

export const RunRuleInput = z.object({ id: ruleId, mid: folderId });
export const RuleJobQuery = z.object({ id: ruleId });
export const RuleJob = z.object({
  id: z.string(), ruleId: z.string(), mid: z.string(), state: z.enum(['queued', 'done', 'failed']),
  total: z.number().int(), scanned: z.number().int(), matched: z.number().int(),
});
export type RuleJob = z.infer<typeof RuleJob>;

const day = z.string({ error: 'is required' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-07-01');
export const AutoReplyInput = z.object({
  enabled: flag,
  start: day.or(z.literal('')).default(''),
  end: day.or(z.literal('')).default(''),
  timeZone: z.string().max(64).default('UTC'),
  subject: z.string().trim().max(200, 'at most 200 characters').default(''),
  body: z.string().max(5000, 'at most 5,000 characters').default(''),
  intervalDays: z.coerce.number({ error: 'must be a number' }).int().min(1, 'at least 1 day').max(30, 'at most 30 days').default(4),
});
export type AutoReplyInput = z.infer<typeof AutoReplyInput>;
export const AutoReply = z.object({
  enabled: z.boolean(), start: z.string(), end: z.string(), timeZone: z.string(), subject: z.string(), body: z.string(), intervalDays: z.number().int(),
});
export type AutoReply = z.infer<typeof AutoReply>;
