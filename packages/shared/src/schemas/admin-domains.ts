import { z } from 'zod';

// The company console, part one (issue 17): domains with their DNS checks, the welcome
// mail, and the per-domain login page.

/** What one record's check found (issue 17): a timeout is `unverifiable`, never "missing". */
export const RECORD_STATES = ['ok', 'missing', 'mismatch', 'syntax-error', 'unverifiable'] as const;
export const RecordState = z.enum(RECORD_STATES);
export type RecordState = z.infer<typeof RecordState>;
export const RECORD_KINDS = ['ownership', 'mx', 'spf', 'dkim', 'dkim-next', 'dmarc'] as const;
export const RecordKind = z.enum(RECORD_KINDS);
export type RecordKind = z.infer<typeof RecordKind>;

export const CheckedRecord = z.object({
  kind: RecordKind,
  type: z.enum(['TXT', 'MX']),
  /** The DNS name to publish at, without a trailing dot. */
  name: z.string(),
  /** The value to publish (copy button). */
  expected: z.string(),
  /** What DNS answered, one string per record (TXT strings joined). */
  found: z.array(z.string()),
  state: RecordState,
  /** A dotted code the client words: `dmarc.policy_none`, `spf.too_many_lookups`, `dns.timeout`... */
  note: z.string().nullable(),
});
export type CheckedRecord = z.infer<typeof CheckedRecord>;

export const DomainStatus = z.object({
  domain: z.string(),
  verified: z.boolean(),
  checkedAt: z.string().nullable(),
  /** Wall time of the last check, all records together. */
  checkMs: z.number().nullable(),
  /** When the automatic recheck runs next (every 10 minutes for 24 h after a change); null when none is planned. */
  nextCheckAt: z.string().nullable(),
  selector: z.string(),
  /** A rotated DKIM key waiting for its record; the current key signs until it verifies. */
  nextSelector: z.string().nullable(),
  records: z.array(CheckedRecord),
});
export type DomainStatus = z.infer<typeof DomainStatus>;
export const DomainStatusList = z.object({ list: z.array(DomainStatus) });
export type DomainStatusList = z.infer<typeof DomainStatusList>;

export const DomainName = z.string({ error: 'is required' }).trim().toLowerCase().transform((d) => d.replace(/\.+$/, ''))
  .pipe(z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/, 'is not a valid domain name'));
export const AddDomainBody = z.object({ domain: DomainName });

/** Welcome mail: {{name}}, {{email}}, {{company}}, {{loginUrl}} are filled in per user. */
export const WELCOME_VARIABLES = ['name', 'email', 'company', 'loginUrl'] as const;
export const WELCOME_SUBJECT_MAX = 200;
export const WELCOME_BODY_MAX = 20_000;
const boolish = z.union([z.boolean(), z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true')]);
export const WelcomeTemplate = z.object({ enabled: z.boolean(), subject: z.string(), body: z.string(), variables: z.array(z.string()) });
export type WelcomeTemplate = z.infer<typeof WelcomeTemplate>;
export const WelcomeBody = z.object({
  enabled: boolish,
  subject: z.string({ error: 'is required' }).trim().min(1, 'is required').max(WELCOME_SUBJECT_MAX, `is at most ${WELCOME_SUBJECT_MAX} characters`),
  body: z.string({ error: 'is required' }).trim().min(1, 'is required').max(WELCOME_BODY_MAX, `is at most ${WELCOME_BODY_MAX} characters`),
});
export const WelcomePreview = z.object({ subject: z.string(), body: z.string() });
export type WelcomePreview = z.infer<typeof WelcomePreview>;

/** The login page's look for one company; all a visitor can learn from a domain. */
export const LOGO_MAX = 150_000;
export const Branding = z.object({ name: z.string(), color: z.string(), logo: z.string() });
export type Branding = z.infer<typeof Branding>;
export const BrandingBody = z.object({
  name: z.string().trim().max(60, 'is at most 60 characters').default(''),
  color: z.string().trim().regex(/^(#[0-9a-fA-F]{6})?$/, 'must be a colour like #1677ff').default(''),
  /** A small data: image (PNG, JPEG, SVG is refused: it can carry script), or '' for none. */
  logo: z.string().max(LOGO_MAX, `is at most ${LOGO_MAX} characters`).regex(/^(data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2})?$/, 'must be a PNG, JPEG or WebP image').default(''),
});
