import { defaultReason, type ReasonCode } from '@mailwing/shared';
import { getLanguage, type Language } from './index';

interface Catalogue { words: Record<ReasonCode, string>; wait: (seconds: number) => string }

// The catalogues load on the first refusal, not with the first screen (budget); after
// that a lookup costs nothing. A failed load (offline with a stale cache) gives undefined,
// and the caller falls back to its own generic words.
const cache: Partial<Record<Language, Catalogue>> = {};
const loaders: Record<Language, () => Promise<Catalogue>> = {
  en: () => import('./reasons/en').then((m) => ({ words: m.enReasons, wait: m.enWait })),
  zh: () => import('./reasons/zh').then((m) => ({ words: m.zhReasons, wait: m.zhWait })),
};

async function catalogue(language: Language): Promise<Partial<Catalogue>> {
  try {
    return (cache[language] ??= await loaders[language]());
  } catch {
    return {};
  }
}

/** The user's words for one reason code, or undefined for a code this client does not know. */
export async function reasonText(reason: string | undefined, language: Language = getLanguage()): Promise<string | undefined> {
  return reason ? (await catalogue(language)).words?.[reason as ReasonCode] : undefined;
}

export interface Refusal {
  /** The whole refusal in the user's language. */
  text: string;
  /** A 422's fields, each in the user's language. */
  fields: Record<string, string>;
}

/**
 * A refusal in the user's language, from its reason codes only (API.md: the client never
 * matches on the server's English `error`). A code this client does not know (a newer
 * server) falls back to the generic code's words; English readers then see the server's own
 * sentence, which is English anyway.
 */
export async function refusalText(
  refusal: { code: number; reason?: string; reasons?: Record<string, string>; retryAfter?: number; english: string; englishFields: Record<string, string> },
  fallback: string,
  language: Language = getLanguage(),
): Promise<Refusal> {
  const { words: known, wait } = await catalogue(language);
  const words: Partial<Record<string, string>> = known ?? {};
  const generic = words[defaultReason(refusal.code)];
  // A schema refusal's English names the limit ("at most 50 characters"); English readers
  // keep that detail, others get the catalogue's words for the kind of problem.
  const say = (reason: string | undefined, english: string) =>
    (language === 'en' && english && reason?.startsWith('input.') ? english : undefined)
    ?? (reason ? words[reason] : undefined) ?? (language === 'en' && english ? english : generic) ?? fallback;
  const fields: Record<string, string> = {};
  for (const [field, english] of Object.entries(refusal.englishFields)) fields[field] = say(refusal.reasons?.[field] ?? refusal.reason, english);
  // A whole-form refusal says what is wrong with its first field rather than "not valid".
  const first = Object.values(fields)[0];
  if (refusal.reason === 'input.invalid' && first) return { text: first, fields };
  if (refusal.reason === 'rate.limited' && refusal.retryAfter && wait) return { text: wait(refusal.retryAfter), fields };
  return { text: say(refusal.reason, refusal.english), fields };
}
