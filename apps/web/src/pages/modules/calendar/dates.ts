import type { Occurrence } from '@mailwing/shared';

// Day arithmetic in the device's zone: the views lay out the user's own days.
export interface Ymd { y: number; m: number; d: number }

export const ymdKey = (v: Ymd) => `${v.y}-${String(v.m).padStart(2, '0')}-${String(v.d).padStart(2, '0')}`;
export const toYmd = (dt: Date): Ymd => ({ y: dt.getFullYear(), m: dt.getMonth() + 1, d: dt.getDate() });
export const todayYmd = () => toYmd(new Date());
export const addMonths = (y: number, m: number, n: number) => {
  const dt = new Date(y, m - 1 + n, 1);
  return { y: dt.getFullYear(), m: dt.getMonth() + 1 };
};
export const unix = (dt: Date) => Math.floor(dt.getTime() / 1000);

/** The six weeks (Monday first) that show a month. */
export function monthCells(y: number, m: number): Date[] {
  const first = new Date(y, m - 1, 1);
  const lead = (first.getDay() + 6) % 7;
  return Array.from({ length: 42 }, (_, i) => new Date(y, m - 1, 1 - lead + i));
}

/** Occurrences by the day they start on; an all-day event by its own date. */
export function byDay(list: readonly Occurrence[]): Map<string, Occurrence[]> {
  const out = new Map<string, Occurrence[]>();
  for (const o of list) {
    const key = o.allDay ? o.localStart.slice(0, 10) : ymdKey(toYmd(new Date(o.start * 1000)));
    out.set(key, [...(out.get(key) ?? []), o]);
  }
  return out;
}

export const timeOf = (o: Occurrence) => new Date(o.start * 1000).toTimeString().slice(0, 5);
