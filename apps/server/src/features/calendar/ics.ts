import ICAL from 'ical.js';
import type { EventRow } from './calendar.repository.js';
import { instantOf, parseWall } from './zoned-time.js';

// iCalendar (RFC 5545) in and out through ical.js. Times go out with the event's IANA
// TZID (what Google, Apple and Outlook accept without a VTIMEZONE of ours) and come in
// as wall times in their TZID, or converted from UTC.

const LUNAR = 'x-mailwing-lunar';

function timeProp(name: string, wall: string, tz: string, allDay: boolean): ICAL.Property {
  const p = new ICAL.Property(name);
  const [date, time = '00:00:00'] = wall.split('T');
  if (allDay) {
    p.setValue(ICAL.Time.fromDateString(date!));
  } else {
    p.setValue(ICAL.Time.fromDateTimeString(`${date}T${time}`));
    p.setParameter('tzid', tz);
  }
  return p;
}

/** One event row as a VEVENT: a series with RRULE and EXDATE, an override (with its master) with RECURRENCE-ID. */
export function veventOf(r: EventRow, master: EventRow | undefined, alarm: boolean): ICAL.Component {
  const ev = new ICAL.Component('vevent');
  ev.addPropertyWithValue('uid', r.uid);
  ev.addPropertyWithValue('dtstamp', ICAL.Time.fromJSDate(r.updated_at, true));
  ev.addProperty(timeProp('dtstart', r.start_local, r.tz, r.all_day));
  ev.addProperty(timeProp('dtend', r.end_local, r.tz, r.all_day));
  ev.addPropertyWithValue('summary', r.title);
  if (r.description) ev.addPropertyWithValue('description', r.description);
  ev.addPropertyWithValue('categories', r.category);
  if (r.rrule) ev.addPropertyWithValue('rrule', ICAL.Recur.fromString(r.rrule));
  for (const w of r.exdates) ev.addProperty(timeProp('exdate', w, r.tz, r.all_day));
  if (r.lunar) ev.addPropertyWithValue(LUNAR, 'TRUE');
  if (master && r.recurrence_id) ev.addProperty(timeProp('recurrence-id', r.recurrence_id, master.tz, master.all_day));
  if (alarm && r.reminder_min >= 0) {
    const valarm = new ICAL.Component('valarm');
    valarm.addPropertyWithValue('action', 'DISPLAY');
    valarm.addPropertyWithValue('description', r.title);
    valarm.addPropertyWithValue('trigger', ICAL.Duration.fromSeconds(-r.reminder_min * 60));
    ev.addSubcomponent(valarm);
  }
  return ev;
}

/** A VCALENDAR of a user's events: series with RRULE and EXDATE, overrides with RECURRENCE-ID, reminders as VALARM. */
export function exportIcs(rows: EventRow[], name: string): string {
  const cal = new ICAL.Component('vcalendar');
  cal.addPropertyWithValue('prodid', '-//Mailwing//Calendar//EN');
  cal.addPropertyWithValue('version', '2.0');
  cal.addPropertyWithValue('x-wr-calname', name);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const r of rows) cal.addSubcomponent(veventOf(r, r.series_id ? byId.get(r.series_id) : undefined, true));
  return cal.toString();
}

export interface ImportedEvent {
  uid: string; title: string; description: string; allDay: boolean; start: string; end: string; tz: string;
  rrule: string | null; exdates: string[]; lunar: boolean; reminder: number; recurrenceId: string | null;
}

const wallOfTime = (t: ICAL.Time, tz: string): string => {
  // A UTC or floating time is placed in the event's zone; a zoned one is its own wall time.
  if (t.zone === ICAL.Timezone.utcTimezone) {
    const ms = t.toJSDate().getTime();
    const f = new Intl.DateTimeFormat('sv-SE', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    return f.format(new Date(ms)).replace(' ', 'T');
  }
  return `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}T${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}:${String(t.second).padStart(2, '0')}`;
};

/** The VEVENTs of an .ics file; throws on text that is not iCalendar. */
export function parseIcs(text: string, defaultTz: string): ImportedEvent[] {
  const cal = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
  return cal.getAllSubcomponents('vevent').map((ev) => {
    const startProp = ev.getFirstProperty('dtstart');
    const start = startProp?.getFirstValue() as ICAL.Time | undefined;
    if (!start) throw new Error('VEVENT without DTSTART');
    const tz = String(startProp!.getParameter('tzid') ?? defaultTz);
    const endVal = ev.getFirstPropertyValue('dtend') as ICAL.Time | null;
    const dur = ev.getFirstPropertyValue('duration') as ICAL.Duration | null;
    const startWall = wallOfTime(start, tz);
    let endWall = endVal ? wallOfTime(endVal, tz) : startWall;
    if (!endVal && dur) endWall = new Date(parseWall(startWall) + dur.toSeconds() * 1000).toISOString().slice(0, 19);
    const recur = ev.getFirstPropertyValue('rrule') as ICAL.Recur | null;
    const exdates = ev.getAllProperties('exdate').flatMap((p) => p.getValues() as ICAL.Time[]).map((t) => wallOfTime(t, tz));
    const trigger = ev.getFirstSubcomponent('valarm')?.getFirstPropertyValue('trigger');
    const recId = ev.getFirstPropertyValue('recurrence-id') as ICAL.Time | null;
    return {
      uid: String(ev.getFirstPropertyValue('uid') ?? ''), title: String(ev.getFirstPropertyValue('summary') ?? ''), description: String(ev.getFirstPropertyValue('description') ?? ''),
      allDay: start.isDate, start: startWall, end: endWall, tz, rrule: recur ? recur.toString() : null, exdates,
      lunar: String(ev.getFirstPropertyValue(LUNAR) ?? '').toUpperCase() === 'TRUE',
      reminder: trigger instanceof ICAL.Duration ? Math.round(-trigger.toSeconds() / 60) : -1,
      recurrenceId: recId ? wallOfTime(recId, tz) : null,
    };
  });
}

export const firstInstant = (e: Pick<ImportedEvent, 'start' | 'tz'>) => instantOf(parseWall(e.start), e.tz);
