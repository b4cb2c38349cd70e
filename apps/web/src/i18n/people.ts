import { useMemo } from 'react';
import { useLanguage, type Language } from './index';
import { enPeople } from './en-people';
import { zhPeople } from './zh-people';
import { adminReason, useAdminT, type AdminMessages } from './admin';

export type PeopleMessages = AdminMessages & typeof enPeople;

// The people page loads on demand, and so do its strings (first-screen budget).
const catalogues: Record<Language, typeof enPeople> = { en: enPeople, zh: zhPeople };

export function usePeopleT(): PeopleMessages {
  const admin = useAdminT();
  const lang = useLanguage();
  return useMemo(() => ({ ...admin, ...catalogues[lang] }), [admin, lang]);
}

/** A refusal in the admin's language by its reason code; the console's general codes next, then the server's words. */
export function peopleReason(m: PeopleMessages, err: unknown): string {
  const reason = (err as { reason?: string }).reason;
  return (reason && m.pplReasons[reason]) || adminReason(m, err);
}
