import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enDisk } from './en-disk';
import { zh } from './zh';
import { zhDisk } from './zh-disk';

export type DiskMessages = Messages & typeof enDisk;

// The disk pages load on demand, and so do their strings (first-screen budget).
const catalogues: Record<Language, DiskMessages> = {
  en: { ...en, ...enDisk },
  zh: { ...zh, ...zhDisk },
};

export function useDiskT(): DiskMessages {
  return catalogues[useLanguage()];
}

/** The user's text for a refusal, by its reason code; the server's words when the code is not ours. */
export function diskReason(m: DiskMessages, err: { reason?: string; message: string }): string {
  return (err.reason && m.reasons[err.reason]) || err.message;
}
