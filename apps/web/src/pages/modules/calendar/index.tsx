import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, InfiniteScroll, List, PullToRefresh, Segmented } from 'antd-mobile';
import { AddOutline, LeftOutline, RightOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import { CALENDAR_MONTHS_SHOWN, type Occurrence } from '@mailwing/shared';
import { calendarApi } from '../../../api/calendar';
import { useCalendarT } from '../../../i18n/calendar';
import { Page } from '../../../ui/page';
import { EmptyState } from '../../../ui/state-view';
import { addMonths, byDay, monthCells, timeOf, todayYmd, unix, ymdKey } from './dates';
import { lunarDate } from './lunar-label';
import { CalendarMenu } from './calendar-menu';
import { MonthGrid } from './month-grid';
import './calendar.css';

type View = 'month' | 'three' | 'agenda';
const AGENDA_DAYS = 30;
export const EDIT_ROUTE = '/pages/modules/calendar/edit';

/** Month, 3-month (spec §9) and agenda views of the user's events. */
export default function CalendarPage() {
  const t = useCalendarT();
  const navigate = useNavigate();
  const today = todayYmd();
  const [view, setView] = useState<View>('month');
  const [anchor, setAnchor] = useState({ y: today.y, m: today.m });
  const [selected, setSelected] = useState(ymdKey(today));
  const [list, setList] = useState<Occurrence[]>([]);
  const [agendaDays, setAgendaDays] = useState(AGENDA_DAYS);

  const months = view === 'three' ? CALENDAR_MONTHS_SHOWN : 1;
  const [from, to] = useMemo(() => {
    if (view === 'agenda') {
      const start = new Date(today.y, today.m - 1, today.d);
      return [start, new Date(today.y, today.m - 1, today.d + agendaDays)];
    }
    const last = addMonths(anchor.y, anchor.m, months - 1);
    return [monthCells(anchor.y, anchor.m)[0]!, new Date(monthCells(last.y, last.m)[41]!.getTime() + 86_400_000)];
  }, [view, anchor.y, anchor.m, months, agendaDays, today.y, today.m, today.d]);

  const load = useCallback(async () => {
    try {
      setList((await calendarApi.range(unix(from), unix(to))).list);
    } catch {
      // request() has told the user.
    }
  }, [from, to]);
  useEffect(() => {
    void load();
  }, [load]);

  const days = useMemo(() => byDay(list), [list]);
  const step = (n: number) => setAnchor((a) => addMonths(a.y, a.m, n * months));
  const open = (o: Occurrence) => navigate(`${EDIT_ROUTE}?id=${o.id}&occurrence=${o.start}`);
  const row = (o: Occurrence) => (
    <List.Item key={`${o.id}-${o.start}`} data-event={o.title} onClick={() => open(o)} description={t.categories[o.category] ?? o.category}
      prefix={<i className={`mw-cal-dot is-${o.category}`} />} extra={o.allDay ? t.allDay : timeOf(o)}>
      {o.title}
    </List.Item>
  );
  const [sy, sm, sd] = selected.split('-').map(Number) as [number, number, number];
  const dayList = days.get(selected) ?? [];

  return (
    <Page title={t.titleCalendar} back="/pages/mbox/mbox-list"
      right={(
        <span style={{ display: 'inline-flex' }}>
          <CalendarMenu onImported={() => void load()} />
          <Button fill="none" size="small" aria-label={t.newEvent} data-action="new-event" onClick={() => navigate(`${EDIT_ROUTE}?date=${selected}`)}><AddOutline fontSize={22} /></Button>
        </span>
      )}
      header={(
        <div className="mw-cal-bar">
          <Segmented block value={view} onChange={(v) => setView(v as View)}
            options={[{ label: t.viewMonth, value: 'month' }, { label: t.view3, value: 'three' }, { label: t.viewAgenda, value: 'agenda' }]} />
          {view !== 'agenda' && (
            <div className="mw-cal-nav">
              <Button fill="none" aria-label={t.prev} onClick={() => step(-1)}><LeftOutline /></Button>
              <span className="mw-cal-title">{t.monthTitle(anchor.y, anchor.m)}</span>
              <Button fill="none" aria-label={t.next} onClick={() => step(1)}><RightOutline /></Button>
              <Button size="mini" onClick={() => { setAnchor({ y: today.y, m: today.m }); setSelected(ymdKey(today)); }}>{t.today}</Button>
            </div>
          )}
        </div>
      )}>
      <PullToRefresh onRefresh={load} pullingText={t.pullToRefresh} canReleaseText={t.releaseToRefresh} refreshingText={t.refreshing} completeText={t.refreshed}>
        {view !== 'agenda' && (
          <>
            {Array.from({ length: months }, (_, i) => addMonths(anchor.y, anchor.m, i)).map((mo) => (
              <MonthGrid key={`${mo.y}-${mo.m}`} y={mo.y} m={mo.m} days={days} selected={selected} today={ymdKey(today)} compact={months > 1} onPick={setSelected} />
            ))}
            <List header={t.dayTitle(sy, sm, sd, lunarDate(sy, sm, sd))} className="mw-cal-daylist">
              {dayList.length === 0 ? <List.Item>{t.noEvents}</List.Item> : dayList.map(row)}
            </List>
          </>
        )}
        {view === 'agenda' && (
          <>
            {list.length === 0 && <EmptyState text={t.noEvents} />}
            {[...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, items]) => {
              const [y, m, d] = key.split('-').map(Number) as [number, number, number];
              return <List key={key} header={t.dayTitle(y, m, d, lunarDate(y, m, d))}>{items.map(row)}</List>;
            })}
            <InfiniteScroll loadMore={async () => setAgendaDays((n) => n + AGENDA_DAYS)} hasMore={agendaDays < 366}>
              {(hasMore) => (hasMore ? t.loadingMore : t.noMore)}
            </InfiniteScroll>
          </>
        )}
      </PullToRefresh>
    </Page>
  );
}
