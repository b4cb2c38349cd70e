import type { Occurrence } from '@mailwing/shared';
import { useCalendarT } from '../../../i18n/calendar';
import { lunarLabel } from './lunar-label';
import { monthCells, toYmd, ymdKey } from './dates';

interface Props {
  y: number;
  m: number;
  days: Map<string, Occurrence[]>;
  selected: string;
  today: string;
  compact?: boolean;
  onPick(key: string): void;
}

/** One month, Monday first, each day with its lunar (农历) date and a dot per event (up to three). */
export function MonthGrid({ y, m, days, selected, today, compact, onPick }: Props) {
  const t = useCalendarT();
  const cells = monthCells(y, m);
  const weeks = compact ? cells.slice(0, cells[35]!.getMonth() + 1 === m ? 42 : 35) : cells;
  return (
    <div className={`mw-cal-month${compact ? ' is-compact' : ''}`} data-month={`${y}-${String(m).padStart(2, '0')}`}>
      {compact && <div className="mw-cal-month-title">{t.monthTitle(y, m)}</div>}
      <div className="mw-cal-grid">
        {t.weekHead.map((w) => <div key={w} className="mw-cal-head">{w}</div>)}
        {weeks.map((dt) => {
          const v = toYmd(dt);
          const key = ymdKey(v);
          const events = days.get(key) ?? [];
          const cls = ['mw-cal-day', v.m !== m && 'is-other', key === selected && 'is-selected', key === today && 'is-today'].filter(Boolean).join(' ');
          return (
            <button type="button" key={key} className={cls} data-day={key} onClick={() => onPick(key)} aria-label={key}>
              <span className="mw-cal-num">{v.d}</span>
              <span className="mw-cal-lunar">{lunarLabel(v.y, v.m, v.d)}</span>
              <span className="mw-cal-dots">{events.slice(0, 3).map((e, i) => <i key={i} className={`mw-cal-dot is-${e.category}`} />)}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
