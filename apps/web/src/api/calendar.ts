import type { CalendarEvent, CalendarInvite, InviteAnswer, OccurrenceList } from '@mailwing/shared';
import { apiUrl, request, type Params } from './request';

// Calls of the calendar pages (issue 18); they load with those pages.
export type EventForm = Params;
export type Scope = 'one' | 'following' | 'all';

export const calendarApi = {
  /** Occurrences overlapping [from, to), unix seconds. */
  range: (from: number, to: number) => request<OccurrenceList>('/calendar/range', { data: { from, to }, loading: false }),
  get: (id: string) => request<CalendarEvent>('/calendar/event', { data: { id } }),
  create: (form: EventForm) => request<CalendarEvent>('/calendar/create', { method: 'POST', data: form }),
  update: (id: string, form: EventForm, scope: Scope, occurrence?: number) =>
    request<CalendarEvent>('/calendar/update', { method: 'POST', data: { ...form, id, scope, occurrence } }),
  /** The .ics download, as a link the browser opens (the session token rides in `t`). */
  exportUrl: () => apiUrl('/calendar/export'),
  importIcs: (ics: string, tz: string) => request<{ imported: number; skipped: number }>('/calendar/import', { method: 'POST', data: { ics, tz } }),
  /** A new private subscription URL; the previous one stops working. */
  feed: async () => {
    const r = await request<{ key: string; path: string }>('/calendar/feed', { method: 'POST', data: {} });
    return apiUrl(`${r.path.replace(/^\/h5/, '')}?key=${encodeURIComponent(r.key)}`, undefined, '');
  },
  revokeFeed: () => request<unknown>('/calendar/feed-revoke', { method: 'POST', data: {} }),
  /** The invitation a mail carries (`id` is the mail's id). */
  invite: (id: string, tz: string) => request<CalendarInvite>('/calendar/invite', { data: { id, tz }, loading: false }),
  answerInvite: (id: string, answer: InviteAnswer, tz: string) => request<CalendarInvite>('/calendar/invite/answer', { method: 'POST', data: { id, answer, tz } }),
  remove: (id: string, scope: Scope, occurrence?: number) => request<unknown>('/calendar/delete', { method: 'POST', data: { id, scope, occurrence } }),
};
