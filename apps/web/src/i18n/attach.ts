import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enAttach } from './en-attach';
import { zh } from './zh';
import { zhAttach } from './zh-attach';

export type AttachMessages = Messages & typeof enAttach;

// Merged once per language; only the read page and the preview pages import this module.
const catalogues: Record<Language, AttachMessages> = {
  en: { ...en, ...enAttach },
  zh: { ...zh, ...zhAttach },
};

/** useT() plus the attachment preview strings (issue 14, scope 5). */
export function useAttachT(): AttachMessages {
  return catalogues[useLanguage()];
}
