// Issue 15, scope 3: what the offline cache keeps, in one place.

/** The newest pages of each folder list kept for offline reading (page 1 … this). */
export const OFFLINE_PAGES = 3;
/** Opened mails kept; past this the least recently opened go first. */
export const OFFLINE_MAILS_MAX = 2000;
/** An attachment larger than this is not kept offline (it downloads online only). */
export const OFFLINE_ATTACH_FILE_MAX = 5 * 1024 * 1024;
/** All kept attachments together, across the device's mailboxes; the oldest go first. */
export const OFFLINE_ATTACH_TOTAL_MAX = 50 * 1024 * 1024;
