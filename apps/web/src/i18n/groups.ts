import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enGroups } from './en-groups';
import { zh } from './zh';
import { zhGroups } from './zh-groups';

export type GroupsMessages = Messages & typeof enGroups;

// The aliases and group pages load on demand, and so do their strings (first-screen budget).
const catalogues: Record<Language, GroupsMessages> = {
  en: { ...en, ...enGroups },
  zh: { ...zh, ...zhGroups },
};

export function useGroupsT(): GroupsMessages {
  return catalogues[useLanguage()];
}

/** The user's text for a refusal, by its reason code (a 422's first field code too); the server's words when the code is not ours. */
export function groupsReason(m: GroupsMessages, err: unknown): string {
  const e = err as { reason?: string; message?: string; details?: { reasons?: Record<string, string> } };
  const field = e.details?.reasons ? Object.values(e.details.reasons)[0] : undefined;
  return (e.reason && m.groupsReasons[e.reason]) || (field && m.groupsReasons[field]) || e.message || String(err);
}
