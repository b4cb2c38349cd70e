import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enCalendar } from './en-calendar';
import { zh } from './zh';
import { zhCalendar } from './zh-calendar';

export type CalendarMessages = Messages & typeof enCalendar;

// Only the lazy calendar pages import this module, so these strings stay out of the first screen.
const catalogues: Record<Language, CalendarMessages> = {
  en: { ...en, ...enCalendar },
  zh: { ...zh, ...zhCalendar },
};

export function useCalendarT(): CalendarMessages {
  return catalogues[useLanguage()];
}
