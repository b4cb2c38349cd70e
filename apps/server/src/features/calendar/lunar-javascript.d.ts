// lunar-javascript ships no types; only what the calendar uses is declared.
declare module 'lunar-javascript' {
  interface LunarDay { getYear(): number; getMonth(): number; getDay(): number; getMonthInChinese(): string; getDayInChinese(): string; getSolar(): SolarDay; getFestivals(): string[]; getJieQi(): string }
  interface SolarDay { getYear(): number; getMonth(): number; getDay(): number; getLunar(): LunarDay; toYmd(): string }
  const lunar: {
    Solar: { fromYmd(y: number, m: number, d: number): SolarDay };
    Lunar: { fromYmd(y: number, m: number, d: number): LunarDay };
    LunarMonth: { fromYm(y: number, m: number): { getDayCount(): number } | null };
  };
  export default lunar;
}
