import { ApiError } from '../api/request';
import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enMailTexts } from './en-mail-texts';
import { zh } from './zh';
import { zhMailTexts } from './zh-mail-texts';

export type MailTextsMessages = Messages & typeof enMailTexts;

// Loaded with the signature and template pages and compose, not with the first screen.
const catalogues: Record<Language, MailTextsMessages> = {
  en: { ...en, ...enMailTexts },
  zh: { ...zh, ...zhMailTexts },
};

export function useMailTextsT(): MailTextsMessages {
  return catalogues[useLanguage()];
}

/** A refusal in the user's language, by its reason code (or a field's); else what the server said. */
export function refusalText(m: MailTextsMessages, error: unknown): string {
  if (!(error instanceof ApiError)) return m.requestFailed;
  const byReason = error.reason ? m.reasons[error.reason] : undefined;
  if (byReason) return byReason;
  const field = Object.values(error.fields)[0];
  return field ?? error.message;
}
