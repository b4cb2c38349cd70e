import { z } from 'zod';
import { isEmail } from '../validators.js';

export const AuthMessages = { autoLoginTarget: 'email, or domain and user, is required' } as const;

export const Email = z.string({ error: 'is required' }).trim().toLowerCase()
  .min(1, 'is required').refine(isEmail, 'is not a valid mailbox address');

export const LoginInput = z.object({
  email: Email,
  password: z.string({ error: 'is required' }).min(1, 'is required').max(1024),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const SessionResult = z.object({ token: z.string(), email: z.string() });
export type SessionResult = z.infer<typeof SessionResult>;

export const LoginResult = z.union([SessionResult, z.object({ verify: z.literal(true), ticket: z.string(), ways: z.array(z.enum(['totp', 'email', 'recovery'])), backupEmail: z.string().optional() })]);
export type LoginResult = z.infer<typeof LoginResult>;

export const AutoLoginInput = z.object({
  token: z.string({ error: 'is required' }).min(1, 'is required').max(512),
  email: Email.optional(),
  domain: z.string().trim().toLowerCase().max(253).optional(),
  user: z.string().trim().toLowerCase().max(64).optional(),
}).refine((v) => v.email !== undefined || (v.domain && v.user), { message: AuthMessages.autoLoginTarget, path: ['email'] });
export type AutoLoginInput = z.infer<typeof AutoLoginInput>;

export const Account = z.object({
  email: z.string(),
  name: z.string(),
  role: z.enum(['user', 'admin']),
  company: z.string(),
  language: z.enum(['zh', 'en']).nullable(),
  quotaBytes: z.number(),
  usedBytes: z.number(),
});
export type Account = z.infer<typeof Account>;

export const Version = z.object({
  version: z.string(),
  code: z.number().int(),
  minCode: z.number().int(),
  notes: z.string(),
  url: z.string(),
});
export type Version = z.infer<typeof Version>;
