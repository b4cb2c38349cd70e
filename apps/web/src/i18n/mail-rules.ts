import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enMailRules } from './en-mail-rules';
import { zh } from './zh';
import { zhMailRules } from './zh-mail-rules';

export type MailRulesMessages = Messages & typeof enMailRules;

// Merged once per language; only the lazy filter-rule and auto-reply pages import this module.
const catalogues: Record<Language, MailRulesMessages> = {
  en: { ...en, ...enMailRules },
  zh: { ...zh, ...zhMailRules },
};

/** useT() plus the strings of the filter-rule and auto-reply pages. */
export function useMailRulesT(): MailRulesMessages {
  return catalogues[useLanguage()];
}
