import rrule from 'rrule';
import { lunarOf, solarOf } from './lunar.js';
import { formatWall, instantOf, wallOf } from './zoned-time.js';

const { RRule } = rrule;
const DAY = 86_400_000;

/** What expansion needs of an event series. */
export interface SeriesSpec {
  /** Wall time of the first occurrence in `tz`, floating milliseconds (zoned-time.parseWall). */
  startWall: number;
  durationMs: number;
  tz: string;
  /** RFC 5545 RRULE value without "RRULE:", UNTIL in UTC ("…Z"); null for a single event. */
  rrule: string | null;
  /** EXDATEs as wall times ("2026-03-08T09:30:00"). */
  exdates?: readonly string[];
  /** Yearly on the lunar month and day of the start (X-MAILWING-LUNAR); rrule then only carries COUNT/UNTIL/INTERVAL. */
  lunar?: boolean;
}

export interface Instance { start: number; end: number; wall: string }

/**
 * The occurrences that overlap [fromMs, toMs). The one expansion the month view, the
 * agenda, reminders and export all use. rrule runs on floating wall times (see zoned-time.ts).
 */
export function expand(spec: SeriesSpec, fromMs: number, toMs: number, limit = 5000, viaRrule = false): Instance[] {
  const out: Instance[] = [];
  const ex = spec.exdates && spec.exdates.length > 0 ? new Set(spec.exdates) : null;
  const push = (wall: number): boolean => {
    const w = formatWall(wall);
    if (ex?.has(w)) return true;
    const start = instantOf(wall, spec.tz);
    const end = spec.durationMs > 0 ? start + spec.durationMs : start;
    if (end > fromMs || (spec.durationMs === 0 && start >= fromMs)) {
      if (start >= toMs) return false;
      out.push({ start, end, wall: w });
    }
    return out.length < limit;
  };
  if (!spec.rrule) {
    push(spec.startWall);
    return out;
  }
  // The wall-clock window, widened by a day on each side for zone offsets, and by the duration.
  const lo = wallOf(fromMs, spec.tz) - DAY - spec.durationMs;
  const hi = wallOf(toMs, spec.tz) + DAY;
  const opts = parseRule(spec.rrule);
  // UNTIL is an instant (RFC 5545 §3.3.10: UTC when DTSTART has a TZID); compare it as wall time.
  const untilWall = opts.until ? wallOf(opts.until.getTime(), spec.tz) : null;
  if (!spec.lunar && !viaRrule && walkSimple(spec.rrule, spec.startWall, lo, hi, untilWall, push)) return out.sort((a, b) => a.start - b.start);
  if (spec.lunar) {
    for (const wall of lunarWalls(spec.startWall, opts.interval ?? 1, opts.count ?? null, untilWall, hi)) {
      if (wall < lo) continue;
      if (!push(wall)) break;
    }
    return out;
  }
  const rule = new RRule({ ...opts, ...skipAhead(opts, spec.startWall, lo), until: untilWall === null ? null : new Date(untilWall), tzid: null });
  rule.between(new Date(Math.max(lo, spec.startWall)), new Date(hi), true, (d) => push(d.getTime()));
  return out.sort((a, b) => a.start - b.start);
}

// Parsed rules by text: a month view expands the same few rule texts hundreds of times.
const parsed = new Map<string, Partial<rrule.Options>>();
function parseRule(text: string): Partial<rrule.Options> {
  let o = parsed.get(text);
  if (!o) {
    o = RRule.parseString(text);
    if (parsed.size > 5000) parsed.clear();
    parsed.set(text, o);
  }
  return { ...o };
}

const WEEKDAY_INDEX: Record<string, number> = { MO: 0, TU: 1, WE: 2, TH: 3, FR: 4, SA: 5, SU: 6 };

/**
 * The series the event form makes, FREQ=DAILY, WEEKLY (with plain BYDAY), MONTHLY or
 * YEARLY with nothing but INTERVAL, COUNT and UNTIL, walked by arithmetic on wall time
 * instead of through rrule, which sets up year masks on every call (most of a cold month
 * view's cost in the profile). Same set as rrule: for WEEKLY, the days of each INTERVAL-th
 * week (WKST=MO) on or after DTSTART; for MONTHLY and YEARLY the day (and month) of DTSTART
 * (RFC 5545 §3.3.10), a period without that day (the 31st, 29 February) being skipped.
 * Returns false, having done nothing, for any other rule.
 */
interface SimpleRule { freq: string; n: number; count: number | null; byday: (number | undefined)[] | null }

// Simple-rule readings by text (null: not a simple rule), like parseRule's cache.
const simpleRules = new Map<string, SimpleRule | null>();
function simpleRule(text: string): SimpleRule | null {
  let r = simpleRules.get(text);
  if (r !== undefined) return r;
  const kv = new Map(text.split(';').map((p) => p.split('=') as [string, string]));
  const freq = kv.get('FREQ') ?? '';
  const n = Number(kv.get('INTERVAL') ?? 1);
  const count = kv.has('COUNT') ? Number(kv.get('COUNT')) : null;
  const plain = [...kv.keys()].every((k) => ['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'WKST'].includes(k))
    && (kv.get('WKST') ?? 'MO') === 'MO' && !(freq !== 'WEEKLY' && kv.has('BYDAY')) && ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(freq)
    && n >= 1 && (count === null || count >= 0);
  r = plain ? { freq, n, count, byday: kv.has('BYDAY') ? kv.get('BYDAY')!.split(',').map((d) => WEEKDAY_INDEX[d]) : null } : null;
  if (simpleRules.size > 5000) simpleRules.clear();
  simpleRules.set(text, r);
  return r;
}

function walkSimple(text: string, startWall: number, lo: number, hi: number, untilWall: number | null, push: (wall: number) => boolean): boolean {
  const rule = simpleRule(text);
  if (!rule) return false;
  const { freq, n, count } = rule;
  const ok = (wall: number) => (untilWall === null || wall <= untilWall) && wall <= hi;
  if (freq === 'DAILY') {
    const step = n * DAY;
    for (let k = count === null ? Math.max(0, Math.floor((lo - startWall) / step)) : 0; count === null || k < count; k++) {
      const wall = startWall + k * step;
      if (!ok(wall)) break;
      if (wall >= lo && !push(wall)) break;
    }
    return true;
  }
  if (freq === 'MONTHLY' || freq === 'YEARLY') return walkByMonth(freq === 'YEARLY' ? 12 * n : n, count, startWall, lo, ok, push);
  const start = new Date(startWall);
  const days = rule.byday ?? [(start.getUTCDay() + 6) % 7];
  if (days.some((d) => d === undefined)) return false;
  const sorted = [...new Set(days as number[])].sort((a, b) => a - b);
  const weekStart = startWall - (startWall % DAY) - ((start.getUTCDay() + 6) % 7) * DAY + (startWall % DAY);
  const step = n * 7 * DAY;
  let seen = 0;
  for (let w = count === null ? Math.max(0, Math.floor((lo - weekStart) / step) - 1) : 0; ; w++) {
    for (const d of sorted) {
      const wall = weekStart + w * step + d * DAY;
      if (wall < startWall) continue;
      if ((count !== null && seen >= count) || !ok(wall)) return true;
      seen++;
      if (wall >= lo && !push(wall)) return true;
    }
  }
}

/**
 * Every `months`-th month from DTSTART's, on DTSTART's day of the month: the periods whose
 * month lacks that day have no occurrence and, as in rrule, do not count towards COUNT.
 */
function walkByMonth(months: number, count: number | null, startWall: number, lo: number, ok: (wall: number) => boolean, push: (wall: number) => boolean): boolean {
  const s = new Date(startWall);
  const [y0, m0, d0, time] = [s.getUTCFullYear(), s.getUTCMonth(), s.getUTCDate(), startWall % DAY];
  // Without COUNT the walk may start a period before the window (lo minus a period is safe).
  const lw = new Date(lo);
  let k = count === null ? Math.max(0, Math.floor(((lw.getUTCFullYear() - y0) * 12 + lw.getUTCMonth() - m0) / months) - 1) : 0;
  for (let seen = 0; count === null || seen < count; k++) {
    const wall = Date.UTC(y0, m0 + k * months, d0) + time;
    // Date.UTC rolls the 31st of a short month into the next one: that period has no occurrence.
    if (new Date(wall).getUTCDate() !== d0) {
      if (!ok(Date.UTC(y0, m0 + k * months, 1) + time)) return true;
      continue;
    }
    if (!ok(wall)) return true;
    seen++;
    if (wall >= lo && !push(wall)) return true;
  }
  return true;
}

/**
 * rrule walks every period from DTSTART; a series begun years before the window would be
 * walked from its start on every view. Without COUNT the set does not depend on where the
 * walk starts, as long as it starts on a period boundary of the same phase and the parts
 * DTSTART implies (RFC 5545 §3.3.10: BYDAY of WEEKLY, BYMONTHDAY of MONTHLY) are made explicit.
 */
function skipAhead(opts: Partial<rrule.Options>, startWall: number, lo: number): Partial<rrule.Options> {
  const start = new Date(startWall);
  const n = opts.interval ?? 1;
  if (opts.count || lo - startWall < 62 * DAY || opts.bysetpos || opts.byweekno || opts.byyearday) return { dtstart: start };
  const time = startWall % DAY;
  if (opts.freq === RRule.DAILY) {
    const k = Math.floor((lo - startWall) / (n * DAY)) - 1;
    return k > 0 ? { dtstart: new Date(startWall + k * n * DAY) } : { dtstart: start };
  }
  if (opts.freq === RRule.WEEKLY) {
    const k = Math.floor((lo - startWall) / (n * 7 * DAY)) - 1;
    if (k <= 0) return { dtstart: start };
    return { dtstart: new Date(startWall + k * n * 7 * DAY), byweekday: opts.byweekday ?? [(start.getUTCDay() + 6) % 7] };
  }
  if (opts.freq === RRule.MONTHLY) {
    const months = (new Date(lo).getUTCFullYear() - start.getUTCFullYear()) * 12 + new Date(lo).getUTCMonth() - start.getUTCMonth();
    const k = Math.floor(months / n) - 1;
    if (k <= 0) return { dtstart: start };
    const implied = opts.byweekday || opts.bymonthday ? {} : { bymonthday: [start.getUTCDate()] };
    return { dtstart: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + k * n, 1) + time), ...implied };
  }
  return { dtstart: start };
}

/** Yearly on a lunar date: each lunar year's date converted to the Gregorian calendar. */
function* lunarWalls(startWall: number, interval: number, count: number | null, untilWall: number | null, hi: number): Generator<number> {
  const s = new Date(startWall);
  const date = lunarOf(s.getUTCFullYear(), s.getUTCMonth() + 1, s.getUTCDate());
  const timeOfDay = startWall % DAY;
  // The lunar year of the start: a date before the lunar new year belongs to the one before.
  const first = s.getUTCFullYear() - (s.getUTCMonth() + 1 < date.month ? 1 : 0);
  let n = 0;
  for (let year = first; ; year += interval) {
    const g = solarOf(year, date);
    const wall = Date.UTC(g.y, g.m - 1, g.d) + timeOfDay;
    if (wall < startWall) continue;
    if (wall > hi || (untilWall !== null && wall > untilWall) || (count !== null && n >= count)) return;
    n++;
    yield wall;
  }
}
