import type { BoundMailbox, Settings } from '@mailwing/shared';
import { request } from './request';

// The reads of the first screen (the Settings and My Mailbox tabs): the
// settings and the bound mailboxes. What changes them loads when used:
// settings.ts with the settings pages, mailboxes.ts on a tap in the mailbox tab.

/** Loaded in the background (start, login, switching mailbox): no spinner, and a failure is only logged. */
export const loadSettings = () => request<Settings>('/setting/index', { loading: false, quiet: true });

/** This mailbox first, then the bound ones, with their unread counts. Quiet: the tab falls back to the list it holds. */
export const boundMailboxes = () => request<BoundMailbox[]>('/login/select', { loading: false, quiet: true });
