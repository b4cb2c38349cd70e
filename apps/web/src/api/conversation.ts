import type { Conversation } from '@mailwing/shared';
import { request } from './request';

// Conversations (issue 14): apart from endpoints.ts so it loads with the read page, not the first screen.

/** The mails of a mail's conversation, oldest first. Quiet: the page reads the mail alone without it. */
export const loadConversation = (mid: string) => request<Conversation>('/read/conversation', { data: { mid }, loading: false, quiet: true });
