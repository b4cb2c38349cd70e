import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enSecurity } from './en-security';
import { zh } from './zh';
import { zhSecurity } from './zh-security';

export type SecurityMessages = Messages & typeof enSecurity;

// Merged once per language; only the lazy account-security pages import this module.
const catalogues: Record<Language, SecurityMessages> = {
  en: { ...en, ...enSecurity },
  zh: { ...zh, ...zhSecurity },
};

/** useT() plus the strings of the verification, reset, security, device and gesture-lock pages. */
export function useSecurityT(): SecurityMessages {
  return catalogues[useLanguage()];
}
