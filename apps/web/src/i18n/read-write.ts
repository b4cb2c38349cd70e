import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enReadWrite } from './en-read-write';
import { zh } from './zh';
import { zhReadWrite } from './zh-read-write';

export type ReadWriteMessages = Messages & typeof enReadWrite;

// Merged once per language; only the lazy read and write pages import this module.
const catalogues: Record<Language, ReadWriteMessages> = {
  en: { ...en, ...enReadWrite },
  zh: { ...zh, ...zhReadWrite },
};

/** useT() plus the strings issue 14 added to reading and writing mail. */
export function useReadWriteT(): ReadWriteMessages {
  return catalogues[useLanguage()];
}

/** The same catalogue outside React (the undo toast outlives the page that sent). */
export function readWriteMessages(language: Language): ReadWriteMessages {
  return catalogues[language];
}
