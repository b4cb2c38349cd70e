import type { CalendarEvent, OccurrenceList } from '@mailwing/shared';
import { request, type Params } from './request';

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
  remove: (id: string, scope: Scope, occurrence?: number) => request<unknown>('/calendar/delete', { method: 'POST', data: { id, scope, occurrence } }),
};
