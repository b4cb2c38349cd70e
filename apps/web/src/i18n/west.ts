import { getLanguage, useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enWest } from './en-west';
import { zh } from './zh';
import { zhWest } from './zh-west';

export type WestMessages = Messages & typeof enWest;

// The west pages load on demand, and so do their strings (first-screen budget).
const catalogues: Record<Language, WestMessages> = {
  en: { ...en, ...enWest },
  zh: { ...zh, ...zhWest },
};

export function useWestT(): WestMessages {
  return catalogues[useLanguage()];
}

export function westMessages(): WestMessages {
  return catalogues[getLanguage()];
}

/** {name} placeholders filled in. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
}
