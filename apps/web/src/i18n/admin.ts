import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enAdmin } from './en-admin';
import { zh } from './zh';
import { zhAdmin } from './zh-admin';

export type AdminMessages = Messages & typeof enAdmin;

// The admin console loads on demand, and so do its strings (first-screen budget).
const catalogues: Record<Language, AdminMessages> = {
  en: { ...en, ...enAdmin },
  zh: { ...zh, ...zhAdmin },
};

export function useAdminT(): AdminMessages {
  return catalogues[useLanguage()];
}

/** The user's text for a refusal, by its reason code; the server's words when the code is not ours. */
export function adminReason(m: AdminMessages, err: unknown): string {
  const e = err as { reason?: string; message?: string };
  return (e.reason && m.reasons[e.reason]) || e.message || String(err);
}

/** Fills {name} placeholders. */
export const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (all, k: string) => (k in vars ? String(vars[k]) : all));
