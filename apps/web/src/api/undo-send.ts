import type { SavedDraft, SendResult, UndoSendSetting } from '@mailwing/shared';
import type { ComposeForm } from './endpoints';
import { ApiError, request } from './request';

// Undo send (issue 14, scope 4). Apart from endpoints.ts so it loads with the write page
// and the settings, not with the first screen.

/** A recipient write/send refused, by field, with the reason code the page words itself. */
export interface RefusedRecipient {
  address: string;
  field: 'to' | 'cc' | 'bcc';
  reason: string;
}

/** The refused recipients a write/send refusal names (empty for any other failure). */
export function refusedRecipients(error: unknown): RefusedRecipient[] {
  if (!(error instanceof ApiError)) return [];
  const list = error.details?.refused;
  if (!Array.isArray(list)) return [];
  return list.filter((r): r is RefusedRecipient =>
    Boolean(r) && typeof r === 'object' && typeof (r as RefusedRecipient).address === 'string' && ['to', 'cc', 'bcc'].includes((r as RefusedRecipient).field));
}

export const undoSendApi = {
  /**
   * Sends with the mailbox's undo window: the server holds the mail until `undoUntil`.
   * Quiet: a refused recipient is shown in its field, in the UI language, by the page.
   */
  send: (data: ComposeForm) => request<SendResult>('/write/send', { method: 'POST', data: { ...data, undo: true }, quiet: true }),
  /** Quiet and without a spinner: the toast that offers it says what happened. */
  undo: (mid: string) => request<SavedDraft>('/write/undo', { method: 'POST', data: { mid }, loading: false, quiet: true }),
  getSetting: () => request<UndoSendSetting>('/setting/undo-send', { loading: false }),
  setSetting: (seconds: number) => request<UndoSendSetting>('/setting/undo-send', { method: 'POST', data: { seconds } }),
};
