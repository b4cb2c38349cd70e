import { z } from 'zod';
import { page, Paged, size } from './common.js';

// Issue 17, company console: people, departments, quotas, aliases and groups.
//   admin GET  admin/people/list        PeopleQuery       → Paged<Person>
//   admin POST admin/people/create      PersonCreateInput → { id }
//   admin POST admin/people/update      PersonUpdateInput → Person
//   admin POST admin/people/delete      IdInput           → Empty
//   admin POST admin/people/reset-password PasswordResetInput → Empty
//   admin POST admin/people/scope       ScopeInput        → Empty
//   admin POST admin/people/import      ImportInput       → PeopleImportResult
//   admin GET  admin/departments/list   —                 → AdminDepartmentList
//   admin POST admin/departments/create|rename|move|delete
//   admin GET  admin/quota/summary      —                 → QuotaSummary
//   admin POST admin/quota/company      CompanyQuotaInput → QuotaSummary
//   admin GET  admin/aliases/list, POST aliases/create|delete
//   admin GET  admin/groups/list, POST groups/create|update|delete

export const PeopleReasons = {
  outOfScope: 'admin.out_of_scope',
  demo: 'admin.demo_read_only',
  rootScope: 'admin.scope_root',
  emailTaken: 'people.email_taken',
  badDomain: 'people.domain_not_hosted',
  self: 'people.self',
  deptNotEmpty: 'department.not_empty',
  deptRoot: 'department.root',
  deptCycle: 'department.cycle',
  companyQuota: 'quota.company_exceeded',
  addressTaken: 'group.address_taken',
} as const;

const id = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid id');
const optId = id.or(z.literal('')).optional();
const bytes = z.coerce.number({ error: 'must be a number' }).int().min(0).max(1e15);
export const SEND_POLICIES = ['anyone', 'company', 'members', 'listed'] as const;
const emailish = z.string().trim().toLowerCase().max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'is not a valid address');
const list = <T extends z.ZodType>(item: T) => z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v), z.array(item).max(1000));

/** One id in a form body; used by every console delete (people, aliases, groups, audit rules, lists). */
export const IdInput = z.object({ id });
export const Person = z.object({
  id: z.string(), email: z.string(), name: z.string(), jobTitle: z.string(), phone: z.string(), role: z.enum(['user', 'admin']),
  status: z.enum(['active', 'disabled']), departmentId: z.string().nullable(), quotaBytes: z.number(), usedBytes: z.number(),
  scope: z.array(z.string()),
});
export type Person = z.infer<typeof Person>;
export const PeopleQuery = z.object({ q: z.string().max(100).optional(), department: optId, page, size });
export const PeopleList = Paged(Person);

export const PersonCreateInput = z.object({
  email: emailish, name: z.string().trim().min(1, 'is required').max(100), password: z.string().min(8, 'is at least 8 characters').max(200),
  departmentId: optId, jobTitle: z.string().max(100).optional(), phone: z.string().max(40).optional(),
  quotaBytes: bytes.optional(), role: z.enum(['user', 'admin']).optional(),
});
export type PersonCreateInput = z.infer<typeof PersonCreateInput>;
export const PersonUpdateInput = z.object({
  id, name: z.string().trim().min(1).max(100).optional(), jobTitle: z.string().max(100).optional(), phone: z.string().max(40).optional(),
  departmentId: optId, quotaBytes: bytes.optional(), status: z.enum(['active', 'disabled']).optional(), role: z.enum(['user', 'admin']).optional(),
});
export type PersonUpdateInput = z.infer<typeof PersonUpdateInput>;
export const PasswordResetInput = z.object({ id, password: z.string().min(8, 'is at least 8 characters').max(200) });
export const ScopeInput = z.object({ id, departments: list(id) });
export const Created = z.object({ id: z.string() });

export const IMPORT_MAX_ROWS = 1000;
export const ImportInput = z.object({ csv: z.string().min(1, 'is required').max(1_000_000) });
export const ImportLine = z.object({ line: z.number(), email: z.string(), ok: z.boolean(), reason: z.string().optional(), error: z.string().optional() });
export const PeopleImportResult = z.object({ created: z.number(), failed: z.number(), lines: z.array(ImportLine) });
export type PeopleImportResult = z.infer<typeof PeopleImportResult>;

export const AdminDepartment = z.object({ id: z.string(), parentId: z.string().nullable(), name: z.string(), people: z.number(), inScope: z.boolean() });
export const AdminDepartmentList = z.object({ list: z.array(AdminDepartment) });
export const DepartmentCreateInput = z.object({ parentId: id, name: z.string().trim().min(1, 'is required').max(100) });
export const DepartmentRenameInput = z.object({ id, name: z.string().trim().min(1, 'is required').max(100) });
export const DepartmentMoveInput = z.object({ id, parentId: id });

export const QuotaSummary = z.object({
  companyQuotaBytes: z.number().nullable(), allocatedBytes: z.number(), usedBytes: z.number(), people: z.number(),
  nearFull: z.array(z.object({ id: z.string(), email: z.string(), quotaBytes: z.number(), usedBytes: z.number(), level: z.number() })),
});
export const CompanyQuotaInput = z.object({ quotaBytes: bytes.or(z.literal('')) });

export const Alias = z.object({ id: z.string(), address: z.string(), userId: z.string(), userEmail: z.string() });
export const AliasList = z.object({ list: z.array(Alias) });
export const AliasCreateInput = z.object({ address: emailish, userId: id });

export const MailGroup = z.object({
  id: z.string(), address: z.string(), name: z.string(), sendPolicy: z.enum(SEND_POLICIES),
  users: z.array(z.string()), departments: z.array(z.string()), outside: z.array(z.string()), senders: z.array(z.string()),
});
export type MailGroup = z.infer<typeof MailGroup>;
export const MailGroupList = z.object({ list: z.array(MailGroup) });
export const GroupCreateInput = z.object({ address: emailish, name: z.string().trim().min(1, 'is required').max(100), sendPolicy: z.enum(SEND_POLICIES).optional() });
export const GroupUpdateInput = z.object({
  id, name: z.string().trim().min(1).max(100).optional(), sendPolicy: z.enum(SEND_POLICIES).optional(),
  users: list(id).optional(), departments: list(id).optional(), outside: list(emailish).optional(), senders: list(emailish).optional(),
});
export type GroupUpdateInput = z.infer<typeof GroupUpdateInput>;

export type Alias = z.infer<typeof Alias>;
export type AliasList = z.infer<typeof AliasList>;
export type MailGroupList = z.infer<typeof MailGroupList>;
export type SendPolicy = (typeof SEND_POLICIES)[number];
export type AdminDepartment = z.infer<typeof AdminDepartment>;
export type AdminDepartmentList = z.infer<typeof AdminDepartmentList>;
export type PeopleList = z.infer<typeof PeopleList>;
export type QuotaSummary = z.infer<typeof QuotaSummary>;
