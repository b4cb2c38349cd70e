import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enMigrate } from './en-migrate';
import { zh } from './zh';
import { zhMigrate } from './zh-migrate';

export type MigrateMessages = Messages & typeof enMigrate;

// The migration and announcement pages load on demand, and so do their strings (first-screen budget).
const catalogues: Record<Language, MigrateMessages> = {
  en: { ...en, ...enMigrate },
  zh: { ...zh, ...zhMigrate },
};

export function useMigrateT(): MigrateMessages {
  return catalogues[useLanguage()];
}

/** The admin's text for a refusal or a failed job, by its reason code; the server's words when the code is not ours. */
export function migrateReason(m: MigrateMessages, reason: string | null | undefined, fallback = ''): string {
  return (reason && m.annReasons[reason]) || fallback || reason || '';
}
