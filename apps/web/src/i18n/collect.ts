import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enCollect } from './en-collect';
import { zh } from './zh';
import { zhCollect } from './zh-collect';

export type CollectMessages = Messages & typeof enCollect;

// Only the lazy setting-pop pages import this module, so these strings stay out of the first screen.
const catalogues: Record<Language, CollectMessages> = {
  en: { ...en, ...enCollect },
  zh: { ...zh, ...zhCollect },
};

export function useCollectT(): CollectMessages {
  return catalogues[useLanguage()];
}
