import ICAL from 'ical.js';
import type { EventRow } from './calendar.repository.js';
import { parseIcs, veventOf, type ImportedEvent } from './ics.js';

// iTIP (RFC 5546) objects: what an organiser sends (REQUEST, CANCEL) and what an
// attendee answers (REPLY). Built and read with ical.js, never by hand.

export type ItipMethod = 'REQUEST' | 'REPLY' | 'CANCEL';
export const ANSWERS = { accepted: 'ACCEPTED', declined: 'DECLINED', tentative: 'TENTATIVE' } as const;
export type Answer = keyof typeof ANSWERS;
export interface Person { email: string; name: string; partstat: string }

const mailto = (email: string) => `mailto:${email}`;
const addressOf = (v: unknown) => String(v ?? '').replace(/^mailto:/i, '').trim().toLowerCase();

function person(kind: 'organizer' | 'attendee', p: { email: string; name: string }, extra: Record<string, string> = {}): ICAL.Property {
  const prop = new ICAL.Property(kind);
  prop.setValue(mailto(p.email));
  if (p.name) prop.setParameter('cn', p.name);
  for (const [k, v] of Object.entries(extra)) prop.setParameter(k, v);
  return prop;
}

function calendar(method: ItipMethod): ICAL.Component {
  const cal = new ICAL.Component('vcalendar');
  cal.addPropertyWithValue('prodid', '-//Mailwing//Calendar//EN');
  cal.addPropertyWithValue('version', '2.0');
  cal.addPropertyWithValue('method', method);
  return cal;
}

/**
 * REQUEST or CANCEL for one UID: the series row and its overrides, each with ORGANIZER,
 * every ATTENDEE (RSVP=TRUE) and SEQUENCE (RFC 5546 §3.2.2, §3.2.5). A CANCEL carries STATUS:CANCELLED.
 */
export function organiserItip(method: 'REQUEST' | 'CANCEL', rows: EventRow[], organiser: { email: string; name: string }, attendees: Person[]): string {
  const cal = calendar(method);
  const master = rows.find((r) => r.series_id === null);
  for (const r of rows) {
    const ev = veventOf(r, master, false);
    ev.addPropertyWithValue('sequence', r.sequence);
    ev.addProperty(person('organizer', organiser));
    for (const a of attendees) ev.addProperty(person('attendee', a, { role: 'REQ-PARTICIPANT', partstat: a.partstat, rsvp: method === 'REQUEST' ? 'TRUE' : 'FALSE' }));
    if (method === 'CANCEL') ev.addPropertyWithValue('status', 'CANCELLED');
    cal.addSubcomponent(ev);
  }
  return cal.toString();
}

/** An attendee's REPLY (RFC 5546 §3.2.3): the UID, SEQUENCE, ORGANIZER and only this attendee with their PARTSTAT. */
export function replyItip(invite: Itip, me: { email: string; name: string }, partstat: string, now: Date): string {
  const cal = calendar('REPLY');
  const ev = new ICAL.Component('vevent');
  ev.addPropertyWithValue('uid', invite.uid);
  ev.addPropertyWithValue('dtstamp', ICAL.Time.fromJSDate(now, true));
  ev.addPropertyWithValue('sequence', invite.sequence);
  const dtstart = invite.vevent.getFirstProperty('dtstart');
  if (dtstart) ev.addProperty(ICAL.Property.fromString(dtstart.toICALString()));
  ev.addPropertyWithValue('summary', invite.master.title);
  ev.addProperty(person('organizer', invite.organizer));
  ev.addProperty(person('attendee', me, { partstat }));
  cal.addSubcomponent(ev);
  return cal.toString();
}

/** What a received iTIP object says. */
export interface Itip {
  method: ItipMethod;
  uid: string;
  sequence: number;
  organizer: { email: string; name: string };
  attendees: Person[];
  /** The series (or single event) and the overrides, as import reads them. */
  master: ImportedEvent;
  overrides: ImportedEvent[];
  vevent: ICAL.Component;
}

function readable(text: string, tz: string): ImportedEvent[] | null {
  try {
    return parseIcs(text, tz);
  } catch {
    return null;
  }
}

const bare = (ev: ICAL.Component): ImportedEvent => {
  const recId = ev.getFirstPropertyValue('recurrence-id') as ICAL.Time | null;
  return {
    uid: String(ev.getFirstPropertyValue('uid') ?? ''), title: String(ev.getFirstPropertyValue('summary') ?? ''), description: '', allDay: false,
    start: '', end: '', tz: 'UTC', rrule: null, exdates: [], lunar: false, reminder: -1, recurrenceId: recId ? recId.toString().slice(0, 19) : null,
  };
};

/** The iTIP object of a text/calendar part, or null if it is none we handle (one UID, a known METHOD). */
export function parseItip(text: string, defaultTz: string): Itip | null {
  try {
    const cal = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
    const method = String(cal.getFirstPropertyValue('method') ?? '').toUpperCase();
    if (method !== 'REQUEST' && method !== 'REPLY' && method !== 'CANCEL') return null;
    const vevents = cal.getAllSubcomponents('vevent');
    // A REPLY (and some CANCELs) need not carry DTSTART (RFC 5546 §3.2.3): only UID, SEQUENCE and the people count there.
    const events = method === 'REQUEST' ? parseIcs(text, defaultTz) : readable(text, defaultTz) ?? vevents.map(bare);
    const i = Math.max(0, events.findIndex((e) => !e.recurrenceId));
    const vevent = vevents[i];
    const master = events[i];
    if (!vevent || !master || !master.uid || events.some((e) => e.uid !== master.uid)) return null;
    const org = vevent.getFirstProperty('organizer');
    const organizer = { email: addressOf(org?.getFirstValue()), name: String(org?.getParameter('cn') ?? '') };
    if (!organizer.email.includes('@')) return null;
    const attendees = vevent.getAllProperties('attendee').map((p) => ({
      email: addressOf(p.getFirstValue()), name: String(p.getParameter('cn') ?? ''), partstat: String(p.getParameter('partstat') ?? 'NEEDS-ACTION').toUpperCase(),
    })).filter((a) => a.email.includes('@'));
    return {
      method, uid: master.uid, sequence: Number(vevent.getFirstPropertyValue('sequence') ?? 0) || 0, organizer, attendees,
      master, overrides: events.filter((e, k) => k !== i), vevent,
    };
  } catch {
    return null;
  }
}
