import { z } from 'zod';
import { isEmail } from '../validators.js';
import { flag, idList } from './common.js';

// Address book (issue 6): personal contacts, groups, important contacts, block and allow lists.

const optionalText = (max: number) => z.string().trim().max(max, `at most ${max} characters`).default('');
const id = z.string().regex(/^\d{1,15}$/, 'is not a valid id');

export const ContactMessages = {
  nameRequired: 'Contact name is required',
  emailRequired: 'Contact e-mail is required',
  emailInvalid: 'is not a valid mailbox address',
  groupNameRequired: 'Group name is required',
  patternInvalid: 'must be an address or a domain',
} as const;

export const ContactInput = z.object({
  id: id.optional().or(z.literal('').transform(() => undefined)),
  name: z.string({ error: ContactMessages.nameRequired }).trim().min(1, ContactMessages.nameRequired).max(100),
  email: z.string({ error: ContactMessages.emailRequired }).trim().toLowerCase().min(1, ContactMessages.emailRequired).refine(isEmail, ContactMessages.emailInvalid),
  phone: optionalText(40),
  company: optionalText(100),
  jobTitle: optionalText(100),
  jobNumber: optionalText(40),
  groupIds: z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v ?? []), z.array(id).max(100)),
  important: flag.default(false),
});
export type ContactInput = z.infer<typeof ContactInput>;

export const Contact = z.object({
  id: z.string(), name: z.string(), email: z.string(), phone: z.string(), company: z.string(), jobTitle: z.string(), jobNumber: z.string(),
  groupIds: z.array(z.string()), important: z.boolean(),
  /** A–Z from the name's pinyin (Chinese) or first letter, '#' otherwise: the index bar's letter. */
  initial: z.string(),
});
export type Contact = z.infer<typeof Contact>;

export const ContactGroup = z.object({ id: z.string(), name: z.string(), count: z.number().int() });
export type ContactGroup = z.infer<typeof ContactGroup>;

export const ContactListQuery = z.object({ q: z.string().trim().max(100).default(''), group: id.optional().or(z.literal('').transform(() => undefined)) });
export const ContactList = z.object({ list: z.array(Contact), groups: z.array(ContactGroup) });
export type ContactList = z.infer<typeof ContactList>;

export const IdsBody = z.object({ ids: idList });
export const ImportantInput = z.object({ id, important: flag });
export const GroupInput = z.object({
  id: id.optional().or(z.literal('').transform(() => undefined)),
  name: z.string({ error: ContactMessages.groupNameRequired }).trim().min(1, ContactMessages.groupNameRequired).max(50),
});
export const GroupIdInput = z.object({ id });
export const GroupMembersInput = z.object({
  id,
  add: z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v ?? []), z.array(id).max(1000)),
  remove: z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v ?? []), z.array(id).max(1000)),
});

export const ImportResult = z.object({
  imported: z.number().int(),
  updated: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
export type ImportResult = z.infer<typeof ImportResult>;
export const ExportQuery = z.object({ format: z.enum(['vcf', 'csv']).default('vcf') });

/** A sender rule: an address ("x@y.com") or a whole domain ("y.com" or "@y.com"). */
export const SenderPattern = z.string().trim().toLowerCase().max(254).transform((v) => v.replace(/^@/, ''))
  .refine((v) => isEmail(v) || /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(v), ContactMessages.patternInvalid);
export const SenderRuleInput = z.object({ kind: z.enum(['block', 'allow']), pattern: SenderPattern });
export const SenderRules = z.object({ block: z.array(z.string()), allow: z.array(z.string()) });
export type SenderRules = z.infer<typeof SenderRules>;
