import { SystemFolder, type Folder, type MboxIndex, type NotifySettings } from '@mailwing/shared';
import type { AppSettingForm } from '../../api/settings';
import { folderTree } from '../../ui/folder-list';

/** The notification settings as the page edits them (no time zone: that is the device's, sent on every save). */
export type NotifyForm = Omit<NotifySettings, 'timeZone'>;

// Mail that is the user's own doing or unwanted does not notify: sent, drafts,
// deleted, and spam (which the server never notifies for, whatever is stored).
const SILENT: readonly string[] = [SystemFolder.Sent, SystemFolder.Drafts, SystemFolder.Spam, SystemFolder.Deleted];

/** The folders one may choose to be notified for: the system folders that receive mail, then one's own, in tree order. */
export function notifyFolderChoices(mbox: MboxIndex | null): Array<{ folder: Pick<Folder, 'mid' | 'name'>; depth: number }> {
  const system = mbox?.system ?? [SystemFolder.Inbox, SystemFolder.GroupMail, SystemFolder.MailHistory].map((mid) => ({ mid, name: '' }));
  return [
    ...system.filter((f) => !SILENT.includes(f.mid)).map((folder) => ({ folder, depth: 0 })),
    ...folderTree(mbox?.custom ?? []),
  ];
}

export function formOf(notify: NotifySettings): NotifyForm {
  return {
    newMail: notify.newMail,
    quietEnabled: notify.quietEnabled,
    quietStart: notify.quietStart,
    quietEnd: notify.quietEnd,
    folders: notify.folders.filter((f) => !SILENT.includes(f)),
  };
}

/** What setting/app-setting gets for a change: the changed fields, and always the device's time zone. */
export function appSettingForm(patch: Partial<NotifyForm>, timeZone: string): AppSettingForm {
  const { folders, ...rest } = patch;
  return { ...rest, timeZone, ...(folders ? { folders: folders.filter((f) => !SILENT.includes(f)).join(',') } : {}) };
}

/** The device's IANA time zone, so quiet hours mean the user's night; UTC when the browser cannot say. */
export function deviceTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
export const HOURS = Array.from({ length: 24 }, (_, i) => pad(i));
export const MINUTES = Array.from({ length: 60 }, (_, i) => pad(i));

/** "22:30" → ["22", "30"] for the picker's two columns; a malformed time gives midnight. */
export function timeColumns(hhmm: string): [string, string] {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return m ? [m[1]!, m[2]!] : ['00', '00'];
}

/** The picker's two columns back to "HH:MM". */
export function timeOf(columns: ReadonlyArray<string | number | null | undefined>): string {
  const h = Math.min(23, Math.max(0, Number(columns[0] ?? 0) || 0));
  const m = Math.min(59, Math.max(0, Number(columns[1] ?? 0) || 0));
  return `${pad(h)}:${pad(m)}`;
}

/** A window that ends at or before it starts runs past midnight (22:00 to 07:00). */
export function wrapsMidnight(start: string, end: string): boolean {
  return end <= start;
}
