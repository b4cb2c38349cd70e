import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';

// POST bodies arrive form-encoded (spec §7), so every value may be a string.
// These helpers accept both the form spelling and the JSON one.

/** "0"/"1", "true"/"false", or a real boolean or number. */
export const flag = z.preprocess((v) => {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true' || v === 'on') return true;
  if (v === 0 || v === '0' || v === 'false' || v === 'off' || v === '') return false;
  return v;
}, z.boolean({ error: 'must be 0 or 1' }));

/** A non-empty list of ids: "a,b,c" or ["a","b"]. */
export const idList = z.preprocess((v) => {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (typeof v === 'number') return [String(v)];
  return v;
}, z.array(z.string().regex(/^\d{1,15}$/, 'is not a valid id')).min(1, 'at least one id is required').max(1000, 'at most 1000 ids at once'));

/** Messages of refinements here and in collect/migrate, so schema-reasons.ts can give each its own code. */
export const InputMessages = {
  badFolderId: 'is not a valid folder id',
  spacesOrControls: 'must not contain spaces or control characters',
  spaces: 'must not contain spaces',
  lineBreaks: 'must not contain line breaks',
} as const;

// Ids have at most 15 digits, so they stay exact as JavaScript numbers; a longer one
// names nothing and is refused here rather than overflowing a column (issue 12, finding 9).
export const mailId = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid mail id');
/** Folder numbers live in a 32-bit column. */
export const folderId = z.string({ error: 'is required' }).regex(/^\d{1,10}$/, InputMessages.badFolderId)
  .refine((v) => Number(v) <= 2_147_483_647, InputMessages.badFolderId);

export const page = z.coerce.number({ error: 'must be a number' }).int().min(1, 'starts at 1').max(1_000_000).default(1);
export const size = z.coerce.number({ error: 'must be a number' }).int().min(1).max(PAGE_SIZE_MAX, `at most ${PAGE_SIZE_MAX}`).default(PAGE_SIZE_DEFAULT);

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(200), data });
}

export const Empty = z.object({});
export type Empty = z.infer<typeof Empty>;

export const Paged = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });
