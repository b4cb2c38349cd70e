export interface QuietHours {
  enabled: boolean;
  /** Minutes after local midnight, 0–1439. */
  start: number;
  end: number;
  /** IANA time zone of the user's device. */
  timeZone: string;
}

/** Minutes after midnight at `now` on the wall clock of `timeZone` (UTC when the zone is unknown). */
export function localMinutes(now: Date, timeZone: string): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  } catch {
    return now.getUTCHours() * 60 + now.getUTCMinutes();
  }
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/**
 * Whether `now` falls inside the quiet window, start inclusive and end exclusive.
 * A window whose start is after its end wraps past midnight (22:00–07:00); one
 * whose start equals its end is empty.
 */
export function inQuietHours(now: Date, q: QuietHours): boolean {
  if (!q.enabled || q.start === q.end) return false;
  const m = localMinutes(now, q.timeZone);
  return q.start < q.end ? m >= q.start && m < q.end : m >= q.start || m < q.end;
}
