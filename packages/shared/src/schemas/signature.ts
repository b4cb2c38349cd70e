import { z } from 'zod';

// Issue 16, scope 1: signatures. Route contract (all under /h5, all need a session):
//   GET  signature/list              → SignatureList        (the mailbox's signatures and its defaults)
//   POST signature/create            SignatureInput → SignatureSaved
//   POST signature/update            SignatureUpdateInput → SignatureSaved
//   POST signature/delete            SignatureIdInput → SignatureList   (a default that pointed at it is cleared)
//   POST signature/defaults          SignatureDefaultsInput → SignatureList
//   GET  signature/default?mode=     SignatureModeQuery → ResolvedSignature (what compose inserts)
// Refusals: signature.not_found (404), signature.limit, signature.too_large, signature.name_taken (422).

/** At most this many signatures per mailbox: enough for roles and languages, small enough to list without paging. */
export const SIGNATURE_MAX_COUNT = 20;
/** UTF-8 bytes of a signature's sanitised HTML; room for a small inline logo (data: image), not for a newsletter. */
export const SIGNATURE_MAX_BYTES = 48 * 1024;
/** What the sanitiser is given at most (bounds its work; the byte limit above applies to its result). */
export const RICH_INPUT_MAX_CHARS = 256 * 1024;

const id = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid id');

export const SignatureName = z.string({ error: 'is required' }).trim().min(1, 'Name must not be empty').max(40, 'Name is at most 40 characters');
export const RichHtml = z.string({ error: 'is required' }).max(RICH_INPUT_MAX_CHARS, `is at most ${RICH_INPUT_MAX_CHARS} characters`);

export const Signature = z.object({ id: z.string(), name: z.string(), html: z.string(), updatedAt: z.number().int() });
export type Signature = z.infer<typeof Signature>;

export const SignatureDefaults = z.object({
  /** Signature for new mail, or null for none. */
  newMail: z.string().nullable(),
  /** Signature for replies and forwards, or null for none; ignored while replySameAsNew. */
  reply: z.string().nullable(),
  /** Replies and forwards use the new-mail signature. */
  replySameAsNew: z.boolean(),
});
export type SignatureDefaults = z.infer<typeof SignatureDefaults>;

export const SignatureList = z.object({ list: z.array(Signature), defaults: SignatureDefaults });
export type SignatureList = z.infer<typeof SignatureList>;

/** A saved signature, and how many remote images the sanitiser removed from it (so the page can say so). */
export const SignatureSaved = Signature.extend({ removedImages: z.number().int() });
export type SignatureSaved = z.infer<typeof SignatureSaved>;

export const SignatureInput = z.object({ name: SignatureName, html: RichHtml });
export const SignatureUpdateInput = z.object({ id, name: SignatureName.optional(), html: RichHtml.optional() });
export const SignatureIdInput = z.object({ id });

/** "" = none; for reply, "same" = same as the new-mail default. */
export const SignatureDefaultsInput = z.object({
  newMail: z.union([id, z.literal('')]).optional(),
  reply: z.union([id, z.literal(''), z.literal('same')]).optional(),
});

export const SignatureMode = z.enum(['new', 'reply', 'forward']);
export type SignatureMode = z.infer<typeof SignatureMode>;
export const SignatureModeQuery = z.object({ mode: SignatureMode.default('new') });
export const ResolvedSignature = z.object({ signature: Signature.nullable() });
export type ResolvedSignature = z.infer<typeof ResolvedSignature>;

/** The signature id a mode uses: replies and forwards fall back to the new-mail one when "same as new". */
export function resolveSignatureId(defaults: SignatureDefaults, mode: SignatureMode): string | null {
  if (mode === 'new' || defaults.replySameAsNew) return defaults.newMail;
  return defaults.reply;
}
