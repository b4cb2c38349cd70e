// Wall time in an IANA zone <-> instants, through Intl (the zone data Node ships).
// rrule is run on "floating" wall times and each occurrence is placed in its zone here,
// which keeps rrule's own time-zone handling (rrule#157, #359, #390: extra or missing
// occurrences on DST change days) out of the way.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The wall time at an instant, straight from Intl (slow: a few µs; see offsetAt). */
function intlWallOf(utcMs: number, tz: string): number {
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(utcMs))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

const intlOffset = (utcMs: number, tz: string) => intlWallOf(utcMs, tz) - Math.floor(utcMs / 1000) * 1000;

// A zone's offsets per UTC year, as [from, offset] segments: Intl is asked once a week and
// the changes found by bisection, so expanding a series costs a table lookup per occurrence.
// (Zones change offset at most a few times a year, never twice within a week.)
const WEEK = 7 * 86_400_000;
const tables = new Map<string, [number, number][]>();

function yearTable(tz: string, year: number): [number, number][] {
  const key = `${tz}|${year}`;
  let t = tables.get(key);
  if (t) return t;
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  t = [[start, intlOffset(start, tz)]];
  for (let at = start; at < end; at += WEEK) {
    const next = Math.min(at + WEEK, end);
    const o = intlOffset(next, tz);
    if (o === t.at(-1)![1]) continue;
    let [lo, hi] = [at, next];
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (intlOffset(mid, tz) === o) hi = mid;
      else lo = mid;
    }
    t.push([hi, o]);
  }
  if (tables.size > 2000) tables.clear();
  tables.set(key, t);
  return t;
}

// The segment [from, to, offset] last used per zone: consecutive lookups almost always hit it.
const lastSegment = new Map<string, [number, number, number]>();

function offsetAt(utcMs: number, tz: string): number {
  const hit = lastSegment.get(tz);
  if (hit && utcMs >= hit[0] && utcMs < hit[1]) return hit[2];
  const year = new Date(utcMs).getUTCFullYear();
  const t = yearTable(tz, year);
  let i = 0;
  while (i + 1 < t.length && utcMs >= t[i + 1]![0]) i++;
  const seg: [number, number, number] = [t[i]![0], i + 1 < t.length ? t[i + 1]![0] : Date.UTC(year + 1, 0, 1), t[i]![1]];
  lastSegment.set(tz, seg);
  return seg[2];
}

/** The wall time at an instant, as milliseconds of a "floating" UTC clock. */
export function wallOf(utcMs: number, tz: string): number {
  return Math.floor(utcMs / 1000) * 1000 + offsetAt(utcMs, tz);
}

/**
 * The instant of a wall time. RFC 5545 §3.3.5: a time that falls in a DST gap is read with
 * the offset before the gap (02:30 on a spring-forward day is 03:30 daylight time); a time
 * that occurs twice is its first occurrence.
 */
export function instantOf(wallMs: number, tz: string): number {
  const DAY = 86_400_000;
  const offBefore = offsetAt(wallMs - DAY, tz);
  const offAfter = offsetAt(wallMs + DAY, tz);
  // The same offset a day either side: no change in between (a zone never changes twice in two days).
  if (offBefore === offAfter) return wallMs - offBefore;
  const before = wallMs - offBefore;
  if (wallOf(before, tz) === wallMs) return before;
  const after = wallMs - offAfter;
  if (wallOf(after, tz) === wallMs) return after;
  return before;
}

/** "2026-03-08T09:30" or "2026-03-08" as floating milliseconds; NaN if it is no real date. */
export function parseWall(s: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (!m) return NaN;
  const [y, mo, d, h = 0, mi = 0, se = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  const ms = Date.UTC(y!, mo! - 1, d!, h, mi, se);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo! - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) return NaN;
  return ms;
}

/**
 * Floating milliseconds as "2026-03-08T09:30:00". By arithmetic (days to a civil date, after
 * H. Hinnant's days_from_civil inverse) rather than toISOString: a month view formats every
 * occurrence it shows, and this was the largest item of its profile.
 */
export function formatWall(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  let t = ms - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const h = Math.floor(t / 3_600_000);
  t -= h * 3_600_000;
  const mi = Math.floor(t / 60_000);
  const se = Math.floor((t - mi * 60_000) / 1000);
  if (y < 0 || y > 9999) return new Date(ms).toISOString().slice(0, 19);
  return `${String(y).padStart(4, '0')}-${two(m)}-${two(d)}T${two(h)}:${two(mi)}:${two(se)}`;
}

const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const two = (n: number): string => TWO[n]!;
