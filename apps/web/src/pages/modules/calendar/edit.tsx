import { useEffect, useState } from 'react';
import { ActionSheet, Button, DatePicker, Dialog, Form, Input, List, Picker, Selector, Switch, TextArea, Toast } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { CALENDAR_YEARS_SPAN, EVENT_CATEGORIES, NO_REMINDER, REMINDER_CHOICES, REPEAT_ENDS, REPEAT_FREQS, WEEKDAYS, type CalendarEvent } from '@mailwing/shared';
import { calendarApi, type Scope } from '../../../api/calendar';
import { useCalendarT } from '../../../i18n/calendar';
import { Page } from '../../../ui/page';
import { usePageLayer, type LayerControl } from '../../../ui/page-layer';
import { fieldsOf, formOf, newForm, problemOf, wallDate, wallTime, type FormState } from './form-state';
import './calendar.css';

const CAL = '/pages/modules/calendar/index';
const now = new Date();
// Spec §9: the date picker spans ±10 years.
const MIN = new Date(now.getFullYear() - CALENDAR_YEARS_SPAN, 0, 1);
const MAX = new Date(now.getFullYear() + CALENDAR_YEARS_SPAN, 11, 31, 23, 59);

/** "All events" keeps the series' first date and takes the form's time of day and length. */
function onSeriesStart(f: FormState, first: Date): FormState {
  const start = new Date(first.getFullYear(), first.getMonth(), first.getDate(), f.start.getHours(), f.start.getMinutes());
  return { ...f, start, end: new Date(start.getTime() + (f.end.getTime() - f.start.getTime())) };
}

/** Create or edit an event; a repeating one asks whether the change is for this one, this and following, or all. */
export default function EventEditPage() {
  const t = useCalendarT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const occurrence = params.get('occurrence') ? Number(params.get('occurrence')) : undefined;
  const [f, setF] = useState<FormState>(() => newForm(params.get('date')));
  const [layer, openLayer] = usePageLayer();
  const [recurring, setRecurring] = useState(false);
  // Who was invited and what each answered (own events); the organiser of an event we were invited to.
  const [people, setPeople] = useState<NonNullable<CalendarEvent['attendees']>>([]);
  const [organizer, setOrganizer] = useState<string | null>(null);
  const [seriesStart, setSeriesStart] = useState<Date | null>(null);
  const [picker, setPicker] = useState<'start' | 'end' | 'until' | 'reminder' | null>(null);
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setF((old) => ({ ...old, [k]: v }));

  useEffect(() => {
    if (!id) return;
    calendarApi.get(id).then((e) => {
      const form = formOf(e);
      setSeriesStart(form.start);
      // Opened from one occurrence: show that occurrence's times.
      if (occurrence && e.rrule) {
        const len = form.end.getTime() - form.start.getTime();
        form.start = new Date(occurrence * 1000);
        form.end = new Date(occurrence * 1000 + len);
      }
      setF(form);
      setRecurring(Boolean(e.rrule));
      setPeople(e.attendees ?? []);
      setOrganizer(e.organizer ?? null);
    }, () => navigate(CAL, { replace: true }));
  }, [id, occurrence, navigate]);

  const askScope = () => new Promise<Scope | null>((resolve) => {
    if (!recurring || !occurrence) return resolve('all');
    // Cancel, the mask, or leaving the page: no scope (a promise settles once, so the close after a choice changes nothing).
    openLayer((control: LayerControl) => (
      <ActionSheet {...control} closeOnAction extra={t.scopeTitle} cancelText={t.cancel}
        actions={[{ key: 'one', text: t.scopeOne }, { key: 'following', text: t.scopeFollowing }, { key: 'all', text: t.scopeAll }]}
        onAction={(a) => resolve(a.key as Scope)}
        onClose={() => { control.onClose(); resolve(null); }} />
    ));
  });

  const save = async () => {
    const problem = problemOf(f);
    if (problem) return void Toast.show({ content: t.reasons[problem] ?? problem });
    const scope = id ? await askScope() : 'all';
    if (!scope) return;
    try {
      if (id) await calendarApi.update(id, fieldsOf(scope === 'all' && seriesStart ? onSeriesStart(f, seriesStart) : f), scope, occurrence);
      else await calendarApi.create(fieldsOf(f));
    } catch {
      return;
    }
    Toast.show({ content: t.saved });
    navigate(CAL, { replace: true });
  };

  const remove = async () => {
    const scope = await askScope();
    if (!scope || !id) return;
    if (scope === 'all' && !(await Dialog.confirm({ content: t.confirmDelete, confirmText: t.delete, cancelText: t.cancel }))) return;
    try {
      await calendarApi.remove(id, scope, occurrence);
    } catch {
      return;
    }
    Toast.show({ content: t.deleted });
    navigate(CAL, { replace: true });
  };

  const reminderOptions = [[{ label: t.reminderNone, value: String(NO_REMINDER) }, ...REMINDER_CHOICES.map((m) => ({ label: t.reminderLabel(m), value: String(m) }))]];
  const show = (d: Date | null) => (d ? (f.allDay ? wallDate(d) : wallTime(d).replace('T', ' ')) : '-');
  const precision = f.allDay ? 'day' : 'minute';

  return (
    <Page title={id ? t.titleEventEdit : t.titleEventNew} back={CAL}
      footer={(
        <div className="mw-cal-footer" style={{ display: 'flex', gap: 8, padding: 12 }}>
          {id && <Button block color="danger" fill="outline" data-action="delete" onClick={() => void remove()}>{t.delete}</Button>}
          <Button block color="primary" data-action="save" onClick={() => void save()}>{t.save}</Button>
        </div>
      )}>
      <Form layout="horizontal" className="mw-cal-form">
        <Form.Item label={t.fTitle}><Input data-field="title" value={f.title} maxLength={100} placeholder={t.fTitlePlaceholder} onChange={(v) => set('title', v)} /></Form.Item>
        <Form.Item label={t.fCategory} layout="vertical">
          <Selector columns={3} value={[f.category]} onChange={(v) => v[0] && set('category', v[0])} options={EVENT_CATEGORIES.map((c) => ({ label: t.categories[c]!, value: c }))} />
        </Form.Item>
        <Form.Item label={t.allDay} childElementPosition="right"><Switch checked={f.allDay} onChange={(v) => set('allDay', v)} /></Form.Item>
        <Form.Item label={t.fStart} clickable onClick={() => setPicker('start')}><span data-field="start">{show(f.start)}</span></Form.Item>
        <Form.Item label={t.fEnd} clickable onClick={() => setPicker('end')}><span data-field="end">{show(f.end)}</span></Form.Item>
        <Form.Item label={t.fRepeat} layout="vertical">
          <Selector columns={3} value={[f.freq]} onChange={(v) => v[0] && set('freq', v[0])} options={REPEAT_FREQS.map((r) => ({ label: t.repeats[r]!, value: r }))} />
        </Form.Item>
        {f.freq !== 'none' && (
          <>
            <Form.Item label={t.fInterval} extra={t.intervalUnit[f.freq]}><Input data-field="interval" value={f.interval} inputMode="numeric" maxLength={4} onChange={(v) => set('interval', v)} /></Form.Item>
            {f.freq === 'weekly' && (
              <Form.Item label={t.fWeekdays} layout="vertical">
                <Selector multiple columns={4} value={f.weekdays} onChange={(v) => set('weekdays', v)} options={WEEKDAYS.map((d) => ({ label: t.weekdays[d]!, value: d }))} />
              </Form.Item>
            )}
            {f.freq === 'yearly' && <Form.Item label={t.fLunar} childElementPosition="right"><Switch checked={f.lunar} onChange={(v) => set('lunar', v)} /></Form.Item>}
            <Form.Item label={t.fEnds} layout="vertical">
              <Selector columns={3} value={[f.ends]} onChange={(v) => v[0] && set('ends', v[0])} options={REPEAT_ENDS.map((e) => ({ label: t.endsChoices[e]!, value: e }))} />
            </Form.Item>
            {f.ends === 'count' && <Form.Item label={t.fCount}><Input value={f.count} inputMode="numeric" maxLength={4} onChange={(v) => set('count', v)} /></Form.Item>}
            {f.ends === 'until' && <Form.Item label={t.fUntil} clickable onClick={() => setPicker('until')}>{f.until ? wallDate(f.until) : '-'}</Form.Item>}
          </>
        )}
        <Form.Item label={t.fReminder} clickable onClick={() => setPicker('reminder')}>
          <span data-field="reminder">{f.reminder === NO_REMINDER ? t.reminderNone : t.reminderLabel(f.reminder)}</span>
        </Form.Item>
        <Form.Item label={t.fDescription} layout="vertical"><TextArea value={f.description} maxLength={2000} autoSize={{ minRows: 2, maxRows: 6 }} onChange={(v) => set('description', v)} /></Form.Item>
        {organizer === null && (
          <Form.Item label={t.fAttendees} layout="vertical" help={t.attendeesHint}>
            <TextArea data-field="attendees" value={f.attendees} maxLength={4000} placeholder={t.fAttendeesPlaceholder} autoSize={{ minRows: 1, maxRows: 4 }} onChange={(v) => set('attendees', v)} />
          </Form.Item>
        )}
      </Form>
      {organizer !== null && <List><List.Item>{t.invitedBy(organizer)}</List.Item></List>}
      {people.length > 0 && (
        <List header={t.invitePeople(people.length)} data-attendees>
          {people.map((p) => <List.Item key={p.email} extra={t.partstat[p.partstat] ?? p.partstat}>{p.name || p.email}</List.Item>)}
        </List>
      )}
      <List><List.Item extra={f.tz}>{t.fTimeZone}</List.Item></List>
      <DatePicker visible={picker === 'start' || picker === 'end' || picker === 'until'} min={MIN} max={MAX} precision={picker === 'until' ? 'day' : precision}
        value={picker === 'end' ? f.end : picker === 'until' ? (f.until ?? f.start) : f.start} confirmText={t.ok} cancelText={t.cancel}
        onClose={() => setPicker(null)}
        onConfirm={(d) => {
          if (picker === 'start') setF((old) => ({ ...old, start: d, end: new Date(d.getTime() + Math.max(0, old.end.getTime() - old.start.getTime())) }));
          else if (picker === 'end') set('end', d);
          else set('until', d);
        }} />
      <Picker visible={picker === 'reminder'} columns={reminderOptions} value={[String(f.reminder)]} confirmText={t.ok} cancelText={t.cancel}
        onClose={() => setPicker(null)} onConfirm={(v) => set('reminder', Number(v[0] ?? NO_REMINDER))} />
      {layer}
    </Page>
  );
}
