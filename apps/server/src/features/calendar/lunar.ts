import lunar from 'lunar-javascript';

const { Solar, Lunar, LunarMonth } = lunar;

export interface LunarDate { month: number; day: number; leap: boolean }

/** The lunar (农历) month and day of a Gregorian date. */
export function lunarOf(y: number, m: number, d: number): LunarDate {
  const l = Solar.fromYmd(y, m, d).getLunar();
  return { month: Math.abs(l.getMonth()), day: l.getDay(), leap: l.getMonth() < 0 };
}

/**
 * The Gregorian date of a lunar month/day in a lunar year. A birthday on the 30th of a
 * month that has 29 days this year falls on its last day; one born in a leap month is kept
 * in the ordinary month of that number, which every year has (the common custom).
 */
export function solarOf(lunarYear: number, date: LunarDate): { y: number; m: number; d: number } {
  const days = LunarMonth.fromYm(lunarYear, date.month)?.getDayCount() ?? 29;
  const s = Lunar.fromYmd(lunarYear, date.month, Math.min(date.day, days)).getSolar();
  return { y: s.getYear(), m: s.getMonth(), d: s.getDay() };
}
