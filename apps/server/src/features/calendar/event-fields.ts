import { CALENDAR_YEARS_SPAN, NO_REMINDER, REMINDER_CHOICES, WEEKDAYS, type CalendarEvent, type CalendarEventFields } from '@mailwing/shared';
import { invalid } from '../../errors.js';
import { expand, type SeriesSpec } from './recurrence.js';
import type { EventRow, NewEvent } from './calendar.repository.js';
import { formatWall, instantOf, isTimeZone, parseWall, wallOf } from './zoned-time.js';

const DAY = 86_400_000;
const YEAR = 365.25 * DAY;

/** The series columns of a form, checked against spec §5's rules; refusals carry calendar.* reasons. */
export function seriesFrom(f: CalendarEventFields, now: Date): Pick<NewEvent, 'title' | 'description' | 'category' | 'all_day' | 'start_local' | 'end_local' | 'tz' | 'rrule' | 'lunar' | 'reminder_min' | 'first_at' | 'last_at'> {
  if (!isTimeZone(f.tz)) throw invalid('tz', 'is not a known time zone', 'calendar.tz_invalid');
  const date = (s: string) => (f.allDay ? s.slice(0, 10) : s);
  const start = parseWall(date(f.start));
  let end = parseWall(date(f.end));
  if (Number.isNaN(start)) throw invalid('start', 'is not a real date', 'calendar.date_invalid');
  if (Number.isNaN(end)) throw invalid('end', 'is not a real date', 'calendar.date_invalid');
  // Spec §9: the date picker spans ±10 years; the server holds the same line.
  const today = wallOf(now.getTime(), f.tz);
  for (const [field, v] of [['start', start], ['end', end]] as const) {
    if (Math.abs(v - today) > CALENDAR_YEARS_SPAN * YEAR) throw invalid(field, 'must be within 10 years of today', 'calendar.date_out_of_range');
  }
  if (f.allDay) end += DAY;
  if (end < start) throw invalid('end', 'End time cannot be before start time', 'calendar.end_before_start');
  if (!(REMINDER_CHOICES as readonly number[]).includes(f.reminder) && f.reminder !== NO_REMINDER) throw invalid('reminder', 'is not one of the reminder choices', 'calendar.reminder_invalid');
  const rrule = ruleOf(f, start);
  const spec: SeriesSpec = { startWall: start, durationMs: end - start, tz: f.tz, rrule, lunar: f.lunar };
  const first = instantOf(start, f.tz);
  return {
    title: f.title, description: f.description, category: f.category, all_day: f.allDay,
    start_local: formatWall(start), end_local: formatWall(end), tz: f.tz, rrule, lunar: f.lunar && rrule !== null, reminder_min: f.reminder,
    first_at: new Date(first), last_at: lastOf(spec, first),
  };
}

/** Spec §5: a weekly repeat needs a weekday; interval days are numeric. */
function ruleOf(f: CalendarEventFields, startWall: number): string | null {
  if (f.freq === 'none') {
    if (f.lunar) throw invalid('lunar', 'A lunar date repeats yearly', 'calendar.lunar_needs_yearly');
    return null;
  }
  if (f.lunar && f.freq !== 'yearly') throw invalid('lunar', 'A lunar date repeats yearly', 'calendar.lunar_needs_yearly');
  if (!/^\d+$/.test(f.interval.trim())) throw invalid('interval', 'Interval days must be numeric', 'calendar.interval_not_numeric');
  const interval = Number(f.interval.trim());
  if (interval < 1 || interval > 999) throw invalid('interval', 'must be between 1 and 999', 'calendar.interval_out_of_range');
  const parts = [`FREQ=${f.freq.toUpperCase()}`];
  if (interval > 1) parts.push(`INTERVAL=${interval}`);
  if (f.freq === 'weekly') {
    const days = f.weekdays.split(',').map((d) => d.trim().toUpperCase()).filter(Boolean);
    if (days.length === 0) throw invalid('weekdays', 'Pick at least one weekday for a weekly repeat', 'calendar.weekday_required');
    if (days.some((d) => !(WEEKDAYS as readonly string[]).includes(d))) throw invalid('weekdays', 'is not a list of weekdays like MO,WE', 'calendar.weekday_required');
    parts.push(`BYDAY=${WEEKDAYS.filter((d) => days.includes(d)).join(',')}`);
  }
  if (f.ends === 'count') {
    if (!/^\d+$/.test(f.count.trim()) || Number(f.count) < 1 || Number(f.count) > 999) throw invalid('count', 'must be a number from 1 to 999', 'calendar.count_invalid');
    parts.push(`COUNT=${Number(f.count)}`);
  } else if (f.ends === 'until') {
    const day = parseWall(f.until.trim());
    if (Number.isNaN(day) || day + DAY <= startWall) throw invalid('until', 'must be a date on or after the start', 'calendar.until_invalid');
    // The end of that day in the event's zone, as an instant (RFC 5545 §3.3.10: UTC with a zoned DTSTART).
    parts.push(`UNTIL=${utcStamp(instantOf(day + DAY - 1000, f.tz))}`);
  }
  return parts.join(';');
}

export const utcStamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';

/** The end of the last occurrence, or null for a series without an end. */
export function lastOf(spec: SeriesSpec, first: number): Date | null {
  if (!spec.rrule) return new Date(first + spec.durationMs);
  if (!/(COUNT|UNTIL)=/.test(spec.rrule)) return null;
  const all = expand(spec, first, first + 120 * YEAR, 100_000);
  return new Date((all.at(-1)?.end ?? first) + 0);
}

export const specOf = (r: Pick<EventRow, 'start_local' | 'end_local' | 'tz' | 'rrule' | 'exdates' | 'lunar'>): SeriesSpec => {
  const start = parseWall(r.start_local);
  return { startWall: start, durationMs: parseWall(r.end_local) - start, tz: r.tz, rrule: r.rrule, exdates: r.exdates, lunar: r.lunar };
};

/** A row as the edit form reads it. */
export function toEvent(r: EventRow): CalendarEvent {
  const kv = new Map((r.rrule ?? '').split(';').filter(Boolean).map((p) => p.split('=') as [string, string]));
  const until = kv.get('UNTIL');
  const endWall = parseWall(r.end_local) - (r.all_day ? DAY : 0);
  return {
    id: String(r.id), title: r.title, description: r.description, category: r.category, allDay: r.all_day,
    start: r.all_day ? r.start_local.slice(0, 10) : r.start_local.slice(0, 16), end: r.all_day ? formatWall(endWall).slice(0, 10) : r.end_local.slice(0, 16),
    tz: r.tz, rrule: r.rrule, exdates: r.exdates,
    freq: (kv.get('FREQ') ?? 'none').toLowerCase(), interval: Number(kv.get('INTERVAL') ?? 1), weekdays: (kv.get('BYDAY') ?? '').split(',').filter(Boolean),
    ends: kv.has('COUNT') ? 'count' : until ? 'until' : 'never', count: kv.has('COUNT') ? Number(kv.get('COUNT')) : null,
    until: until ? formatWall(wallOf(Date.parse(`${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}T${until.slice(9, 11)}:${until.slice(11, 13)}:${until.slice(13, 15)}Z`), r.tz)).slice(0, 10) : null,
    lunar: r.lunar, reminder: r.reminder_min,
  };
}
