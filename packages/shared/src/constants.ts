// Business constants fixed by the product spec, section 9. Both apps read them from here.

export const APP_VERSION = '6.2.6';
export const APP_VERSION_CODE = 100;

export const REQUEST_TIMEOUT_MS = 60_000;
export const PAGE_LOAD_DELAY_MS = 200;
export const PAGE_LOAD_TIMEOUT_MS = 60_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const DEBOUNCE_MS = 500;
export const TOAST_MS = 2_000;

export const VERIFY_CODE_LENGTH = 6;
export const VERIFY_RESEND_SECONDS = 60;

export const FOLDER_MAX_DEPTH = 3;
export const NETDISK_MAX_FILE_BYTES = 2 * 1024 ** 3;
export const UPLOAD_MAX_FILES = 52;
export const VIDEO_MAX_SECONDS = 60;
export const DATE_PICKER_YEARS = 10;

export const BADGE_MAX = 999;
export const TAB_COLOR = '#585858';
export const TAB_SELECTED_COLOR = '#2086EE';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/** Reminder / delay choices in minutes (spec §9: about 23 choices). */
export const REMINDER_MINUTES: readonly number[] = [
  0, 1, 2, 5, 10, 15, 30,
  ...Array.from({ length: 11 }, (_, i) => (i + 1) * 60),
  12 * 60, 24 * 60, 2 * 24 * 60, 3 * 24 * 60, 4 * 24 * 60,
  7 * 24 * 60, 14 * 24 * 60,
];

/** System folder ids, spec §3. Custom folders get ids from 100 up, so they never collide. */
export const SystemFolder = {
  Inbox: '0',
  Sent: '1',
  Drafts: '2',
  Spam: '3',
  Deleted: '4',
  GroupMail: '5',
  MailHistory: '6',
} as const;
export type SystemFolderId = (typeof SystemFolder)[keyof typeof SystemFolder];
export const SYSTEM_FOLDER_IDS: readonly SystemFolderId[] = Object.values(SystemFolder);
export const FIRST_CUSTOM_FOLDER_ID = 100;

export const MAIL_STATUSES = [
  'unread', 'read', 'replied', 'forwarded', 'replied_forwarded',
  'sending', 'sent', 'send_failed', 'recalled',
  'audit_waiting', 'auditing', 'audit_passed', 'audit_rejected', 'unknown',
] as const;
