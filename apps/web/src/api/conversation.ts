import type { Conversation, Mail } from '@mailwing/shared';
import { request } from './request';

// Conversations (issue 14): apart from endpoints.ts so it loads with the read page, not the first screen.

/** The mails of a mail's conversation, oldest first. Quiet: the page reads the mail alone without it. */
export const loadConversation = (mid: string) => request<Conversation>('/read/conversation', { data: { mid }, loading: false, quiet: true });

/** Reads (and so marks read) one stacked mail; the card shows its own spinner, so no page-wide one. */
export const readStacked = (mid: string) =>
  request<Mail>('/read/index', { data: { mid }, loading: false, headers: { 'X-Requested-With': 'XMLHttpRequest' } });
