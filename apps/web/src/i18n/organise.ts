import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enOrganise } from './en-organise';
import { zh } from './zh';
import { zhOrganise } from './zh-organise';

export type OrganiseMessages = Messages & typeof enOrganise;

// Merged once per language; only the lazy pages of issue 5 import this module.
const catalogues: Record<Language, OrganiseMessages> = {
  en: { ...en, ...enOrganise },
  zh: { ...zh, ...zhOrganise },
};

/** useT() plus the strings of the folder, tag, note and search pages. */
export function useOrganiseT(): OrganiseMessages {
  return catalogues[useLanguage()];
}
