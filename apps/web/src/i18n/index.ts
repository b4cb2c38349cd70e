import type { MailTimeWords } from '@mailwing/shared';
import { createStore, useStore } from '../state/store';
import { en, type Messages } from './en';
import { zh } from './zh';

export type Language = 'zh' | 'en';
export type { Messages };

const STORAGE_KEY = 'language';
const catalogues: Record<Language, Messages> = { zh, en };

/** Spec §9: zh when the system language starts with zh, otherwise en. */
export function defaultLanguage(systemLanguage: string | undefined): Language {
  return systemLanguage?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

function initialLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved === 'zh' || saved === 'en') return saved;
  return defaultLanguage(navigator.language);
}

const languageStore = createStore({ language: initialLanguage() });
document.documentElement.lang = languageStore.get().language;

export function getLanguage(): Language {
  return languageStore.get().language;
}

/** Persists the user's choice; every subscribed component re-renders at once. */
export function setLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
  languageStore.set({ language });
}

/** Messages for code outside React (the request layer's toasts). */
export function messages(): Messages {
  return catalogues[getLanguage()];
}

export function useLanguage(): Language {
  return useStore(languageStore, (s) => s.language);
}

export function useT(): Messages {
  return catalogues[useLanguage()];
}

export function timeWords(m: Messages): MailTimeWords {
  return {
    justNow: m.justNow,
    minutesAgo: m.minutesAgo,
    today: m.today,
    yesterday: m.yesterday,
    dayBeforeYesterday: m.dayBeforeYesterday,
  };
}
