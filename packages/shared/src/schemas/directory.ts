import { z } from 'zod';
import { isEmail } from '../validators.js';
import { page, size } from './common.js';

// Company directory (issue 6): departments, members, and member editing by admins (spec §6).

const id = z.string().regex(/^\d{1,15}$/, 'is not a valid id');

export const Department = z.object({ id: z.string(), name: z.string(), parentId: z.string().nullable(), members: z.number().int() });
export type Department = z.infer<typeof Department>;
export const DepartmentTree = z.object({ list: z.array(Department), rootId: z.string() });
export type DepartmentTree = z.infer<typeof DepartmentTree>;

export const Member = z.object({
  id: z.string(), name: z.string(), email: z.string(), departmentId: z.string().nullable(), department: z.string(), jobTitle: z.string(), phone: z.string(),
  role: z.enum(['user', 'admin']),
});
export type Member = z.infer<typeof Member>;

export const MemberQuery = z.object({
  dept: id.optional().or(z.literal('').transform(() => undefined)),
  /** With dept: include members of sub-departments (a whole department, for choosing recipients). */
  deep: z.preprocess((v) => v === '1' || v === 'true' || v === true, z.boolean()).default(false),
  q: z.string().trim().max(100).default(''),
  page,
  size,
});
export const MemberList = z.object({ list: z.array(Member), total: z.number().int(), page: z.number().int(), size: z.number().int() });
export type MemberList = z.infer<typeof MemberList>;
export const MemberIdQuery = z.object({ id });

export const MemberEditInput = z.object({
  id: id.optional().or(z.literal('').transform(() => undefined)),
  /** Only for a new member. */
  email: z.string().trim().toLowerCase().refine(isEmail, 'is not a valid mailbox address').optional().or(z.literal('').transform(() => undefined)),
  password: z.string().min(8, 'at least 8 characters').max(1024).optional().or(z.literal('').transform(() => undefined)),
  name: z.string().trim().min(1, 'is required').max(100),
  departmentId: id,
  jobTitle: z.string().trim().max(100).default(''),
  phone: z.string().trim().max(40).default(''),
  role: z.enum(['user', 'admin']).default('user'),
});
export type MemberEditInput = z.infer<typeof MemberEditInput>;
