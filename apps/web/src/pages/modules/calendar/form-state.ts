import type { EVENT_CATEGORIES, CalendarEvent } from '@mailwing/shared';

export interface FormState {
  title: string; description: string; category: (typeof EVENT_CATEGORIES)[number]; allDay: boolean;
  start: Date; end: Date; tz: string; freq: string; interval: string; weekdays: string[];
  ends: string; count: string; until: Date | null; lunar: boolean; reminder: number;
  /** Invitees, as typed (comma-separated); only an event of one's own has them. */
  attendees: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
export const wallDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
export const wallTime = (d: Date) => `${wallDate(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
const parse = (s: string) => {
  const [date, time = '00:00'] = s.split('T');
  const [y, m, d] = date!.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, h, mi);
};

export function newForm(date: string | null): FormState {
  const base = date ? parse(date) : new Date();
  const start = new Date(base.getFullYear(), base.getMonth(), base.getDate(), date ? 9 : new Date().getHours() + 1, 0);
  return {
    title: '', description: '', category: 'work', allDay: false, start, end: new Date(start.getTime() + 3_600_000),
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai', freq: 'none', interval: '1', weekdays: [], ends: 'never', count: '10', until: null, lunar: false, reminder: 15, attendees: '',
  };
}

export function formOf(e: CalendarEvent): FormState {
  return {
    title: e.title, description: e.description, category: e.category as FormState['category'], allDay: e.allDay, start: parse(e.start), end: parse(e.end), tz: e.tz,
    freq: e.freq, interval: String(e.interval), weekdays: e.weekdays, ends: e.ends, count: String(e.count ?? 10), until: e.until ? parse(e.until) : null, lunar: e.lunar, reminder: e.reminder,
    attendees: (e.attendees ?? []).map((a) => a.email).join(', '),
  };
}

/** Spec §5's rules, checked before sending; the keys are the server's reason codes. */
export function problemOf(f: FormState): string | null {
  if (!f.title.trim()) return 'calendar.title_required';
  const end = f.allDay ? new Date(f.end.getFullYear(), f.end.getMonth(), f.end.getDate() + 1) : f.end;
  const start = f.allDay ? new Date(f.start.getFullYear(), f.start.getMonth(), f.start.getDate()) : f.start;
  if (end < start) return 'calendar.end_before_start';
  if (f.freq === 'none') return null;
  if (!/^\d+$/.test(f.interval.trim())) return 'calendar.interval_not_numeric';
  if (Number(f.interval) < 1 || Number(f.interval) > 999) return 'calendar.interval_out_of_range';
  if (f.freq === 'weekly' && f.weekdays.length === 0) return 'calendar.weekday_required';
  if (f.ends === 'count' && (!/^\d+$/.test(f.count.trim()) || Number(f.count) < 1 || Number(f.count) > 999)) return 'calendar.count_invalid';
  if (f.ends === 'until' && (!f.until || wallDate(f.until) < wallDate(f.start))) return 'calendar.until_invalid';
  return null;
}

/** The API's form fields. */
export function fieldsOf(f: FormState): Record<string, string | number> {
  return {
    title: f.title.trim(), description: f.description, category: f.category, allDay: f.allDay ? 1 : 0,
    start: f.allDay ? wallDate(f.start) : wallTime(f.start), end: f.allDay ? wallDate(f.end) : wallTime(f.end), tz: f.tz,
    freq: f.freq, interval: f.interval.trim(), weekdays: f.weekdays.join(','), ends: f.ends, count: f.count.trim(), until: f.until ? wallDate(f.until) : '',
    lunar: f.lunar && f.freq === 'yearly' ? 1 : 0, reminder: f.reminder, attendees: f.attendees,
  };
}
