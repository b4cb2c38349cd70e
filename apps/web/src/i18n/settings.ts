import { getLanguage, useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enSettings } from './en-settings';
import { zh } from './zh';
import { zhSettings } from './zh-settings';

export type SettingsMessages = Messages & typeof enSettings;

// The settings pages load on demand, and so do their strings: the first-screen
// bundle (budget: e2e/tests/budget.test.ts) carries only the Settings tab's rows.
const catalogues: Record<Language, SettingsMessages> = {
  en: { ...en, ...enSettings },
  zh: { ...zh, ...zhSettings },
};

/** useT() plus the strings of the settings pages (profile, notifications, version, agreement, binding). */
export function useSettingsT(): SettingsMessages {
  return catalogues[useLanguage()];
}

/** The same strings for code outside React (the mailbox tab's actions). */
export function settingsMessages(): SettingsMessages {
  return catalogues[getLanguage()];
}
