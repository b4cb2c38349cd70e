import lunar from 'lunar-javascript';

const { Solar } = lunar;

/** What a day cell shows under the date: a festival or solar term, else the lunar day (初一 shows the month). */
export function lunarLabel(y: number, m: number, d: number): string {
  const l = Solar.fromYmd(y, m, d).getLunar();
  const special = l.getFestivals()[0] || l.getJieQi();
  if (special) return special;
  return l.getDay() === 1 ? `${l.getMonthInChinese()}月` : l.getDayInChinese();
}

/** The full lunar date, e.g. 八月十五. */
export function lunarDate(y: number, m: number, d: number): string {
  const l = Solar.fromYmd(y, m, d).getLunar();
  return `${l.getMonthInChinese()}月${l.getDayInChinese()}`;
}
