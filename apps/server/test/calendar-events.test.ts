import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { CalendarService } from '../src/features/calendar/calendar.service.js';
import { startDemo, type TestServer } from './harness.js';

type Ev = { id: string; rrule: string | null; exdates: string[]; freq: string; weekdays: string[]; count: number | null; reminder: number; title: string };
type Occ = { id: string; title: string; start: number; localStart: string; lunar: boolean };

let s: TestServer;
let alice: string;
let bob: string;
beforeAll(async () => ({ s, alice, bob } = await startDemo()));
afterAll(async () => s?.stop());

const weekly = { title: 'Standup', start: '2026-03-02T09:00', end: '2026-03-02T09:15', tz: 'America/New_York', freq: 'weekly', weekdays: 'MO,WE', reminder: 10 };
const range = async (from: string, to: string, token = alice) => {
  const r = await s.get<{ list: Occ[] }>('/h5/calendar/range', { from: Date.parse(from) / 1000, to: Date.parse(to) / 1000 }, token);
  expect(r.code).toBe(200);
  return r.data.list;
};
const create = async (body: Record<string, string | number>) => {
  const r = await s.post<Ev>('/h5/calendar/create', body, alice);
  expect(r.code, JSON.stringify(r)).toBe(200);
  return r.data;
};

describe('calendar events', () => {
  it('creates a weekly event stored as an RRULE and lists its occurrences across the DST change', async () => {
    const ev = await create(weekly);
    expect(ev.rrule).toBe('FREQ=WEEKLY;BYDAY=MO,WE');
    expect(ev.reminder).toBe(10);
    const list = (await range('2026-03-01T00:00Z', '2026-03-15T00:00Z')).filter((o) => o.id === ev.id);
    expect(list.map((o) => o.localStart)).toEqual(['2026-03-02T09:00', '2026-03-04T09:00', '2026-03-09T09:00', '2026-03-11T09:00']);
    expect(new Date(list[2]!.start * 1000).toISOString()).toBe('2026-03-09T13:00:00.000Z');
    await s.post('/h5/calendar/delete', { id: ev.id }, alice);
  });

  it('refuses what spec §5 refuses, with its message and reason, and stores nothing', async () => {
    const cases: [Record<string, string | number>, string, string][] = [
      [{ ...weekly, end: '2026-03-02T08:59' }, 'end', 'calendar.end_before_start'],
      [{ ...weekly, weekdays: '' }, 'weekdays', 'calendar.weekday_required'],
      [{ ...weekly, freq: 'daily', interval: '2x' }, 'interval', 'calendar.interval_not_numeric'],
      [{ ...weekly, reminder: 7 }, 'reminder', 'calendar.reminder_invalid'],
      [{ ...weekly, start: '2046-03-02T09:00', end: '2046-03-02T10:00' }, 'start', 'calendar.date_out_of_range'],
      [{ ...weekly, start: '2026-02-30T09:00' }, 'start', 'calendar.date_invalid'],
      [{ ...weekly, tz: 'Mars/Olympus' }, 'tz', 'calendar.tz_invalid'],
      [{ ...weekly, ends: 'count', count: 'ten' }, 'count', 'calendar.count_invalid'],
      [{ ...weekly, freq: 'monthly', lunar: 1 }, 'lunar', 'calendar.lunar_needs_yearly'],
    ];
    for (const [body, field, reason] of cases) {
      const r = await s.post<never>('/h5/calendar/create', body, alice) as unknown as { code: number; reason: string; reasons: Record<string, string>; error: Record<string, string> };
      expect([r.code, r.reason, r.reasons?.[field]], JSON.stringify(body)).toEqual([422, reason, reason]);
    }
    const r = await s.post<never>('/h5/calendar/create', { ...weekly, end: '2026-03-02T08:00' }, alice) as unknown as { error: Record<string, string> };
    expect(r.error.end).toBe('End time cannot be before start time');
    expect(await range('2026-01-01T00:00Z', '2026-12-31T00:00Z')).toEqual([]);
    expect((await s.post('/h5/calendar/create', { ...weekly, title: 'a\u0000b' }, alice)).code).not.toBe(200);
  });

  it("keeps another user's events out of reach: same 404 as a missing id", async () => {
    const ev = await create({ ...weekly, title: 'Private' });
    for (const [route, body] of [['/h5/calendar/update', { ...weekly, id: ev.id }], ['/h5/calendar/delete', { id: ev.id }]] as const) {
      const r = await s.post(route, body, bob) as unknown as { code: number; reason: string };
      expect([r.code, r.reason]).toEqual([404, 'calendar_event.not_found']);
    }
    expect((await s.get('/h5/calendar/event', { id: ev.id }, bob)).code).toBe(404);
    expect(await range('2026-03-01T00:00Z', '2026-03-15T00:00Z', bob)).toEqual([]);
    expect((await s.get<Ev>('/h5/calendar/event', { id: ev.id }, alice)).data.title).toBe('Private');
    await s.post('/h5/calendar/delete', { id: ev.id }, alice);
  });

  it('edits this one: an EXDATE on the series and an override that replaces the occurrence', async () => {
    const ev = await create({ ...weekly, title: 'Series' });
    const occ = (await range('2026-03-04T00:00Z', '2026-03-05T00:00Z')).find((o) => o.id === ev.id)!;
    const r = await s.post<Ev>('/h5/calendar/update', { ...weekly, title: 'Moved', start: '2026-03-04T11:00', end: '2026-03-04T11:30', freq: 'none', id: ev.id, scope: 'one', occurrence: occ.start }, alice);
    expect(r.code).toBe(200);
    expect((await s.get<Ev>('/h5/calendar/event', { id: ev.id }, alice)).data.exdates).toEqual(['2026-03-04T09:00:00']);
    const week = await range('2026-03-01T00:00Z', '2026-03-08T00:00Z');
    expect(week.map((o) => `${o.title} ${o.localStart}`)).toEqual(['Series 2026-03-02T09:00', 'Moved 2026-03-04T11:00']);
    expect((await s.post('/h5/calendar/update', { ...weekly, id: ev.id, scope: 'one', occurrence: occ.start + 60 }, alice) as unknown as { reason: string }).reason).toBe('calendar.occurrence_unknown');
    await s.post('/h5/calendar/delete', { id: ev.id }, alice);
    expect(await range('2026-03-01T00:00Z', '2026-03-08T00:00Z')).toEqual([]);
  });

  it('edits this and following: the series ends before the occurrence (UNTIL) and a new one starts there', async () => {
    const ev = await create({ ...weekly, title: 'Old' });
    const occ = (await range('2026-03-16T00:00Z', '2026-03-17T00:00Z')).find((o) => o.id === ev.id)!;
    const r = await s.post<Ev>('/h5/calendar/update', { ...weekly, title: 'New', start: '2026-03-16T10:00', end: '2026-03-16T10:30', weekdays: 'MO', id: ev.id, scope: 'following', occurrence: occ.start }, alice);
    expect(r.code).toBe(200);
    expect((await s.get<Ev>('/h5/calendar/event', { id: ev.id }, alice)).data.rrule).toBe('FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260316T125959Z');
    const list = await range('2026-03-09T00:00Z', '2026-03-31T00:00Z');
    expect(list.map((o) => `${o.title} ${o.localStart}`)).toEqual(['Old 2026-03-09T09:00', 'Old 2026-03-11T09:00', 'New 2026-03-16T10:00', 'New 2026-03-23T10:00', 'New 2026-03-30T10:00']);
    await s.post('/h5/calendar/delete', { id: ev.id }, alice);
    await s.post('/h5/calendar/delete', { id: r.data.id }, alice);
  });

  it('this and following on a COUNT series splits the count', async () => {
    const ev = await create({ ...weekly, title: 'Five', ends: 'count', count: '5' });
    const occ = (await range('2026-03-09T00:00Z', '2026-03-10T00:00Z')).find((o) => o.id === ev.id)!;
    const r = await s.post<Ev>('/h5/calendar/update', { ...weekly, title: 'Rest', start: '2026-03-09T09:00', end: '2026-03-09T09:15', ends: 'count', count: '3', id: ev.id, scope: 'following', occurrence: occ.start }, alice);
    expect((await s.get<Ev>('/h5/calendar/event', { id: ev.id }, alice)).data.count).toBe(2);
    const list = await range('2026-03-01T00:00Z', '2026-04-30T00:00Z');
    expect(list.map((o) => `${o.title} ${o.localStart.slice(5, 10)}`)).toEqual(['Five 03-02', 'Five 03-04', 'Rest 03-09', 'Rest 03-11', 'Rest 03-16']);
    await s.post('/h5/calendar/delete', { id: ev.id }, alice);
    await s.post('/h5/calendar/delete', { id: r.data.id }, alice);
  });

  it('deletes this one and this and following', async () => {
    const ev = await create({ ...weekly, title: 'Del' });
    const occs = (await range('2026-03-01T00:00Z', '2026-03-20T00:00Z')).filter((o) => o.id === ev.id);
    expect((await s.post('/h5/calendar/delete', { id: ev.id, scope: 'one', occurrence: occs[1]!.start }, alice)).code).toBe(200);
    expect((await s.post('/h5/calendar/delete', { id: ev.id, scope: 'following', occurrence: occs[3]!.start }, alice)).code).toBe(200);
    expect((await range('2026-03-01T00:00Z', '2026-06-01T00:00Z')).map((o) => o.localStart)).toEqual(['2026-03-02T09:00', '2026-03-09T09:00']);
    await s.post('/h5/calendar/delete', { id: ev.id }, alice);
  });

  it('an all-day lunar birthday repeats on its lunar date', async () => {
    const ev = await create({ title: '妈妈生日', start: '2026-09-25', end: '2026-09-25', allDay: 1, freq: 'yearly', lunar: 1, tz: 'Asia/Shanghai', category: 'birthday' });
    const list = await range('2027-09-01T00:00Z', '2027-10-01T00:00Z');
    expect(list.map((o) => [o.id, o.localStart.slice(0, 10), o.lunar])).toEqual([[ev.id, '2027-09-15', true]]);
    await s.post('/h5/calendar/delete', { id: ev.id }, alice);
  });

  it('refuses a range that is empty or longer than 400 days', async () => {
    const r = await s.get('/h5/calendar/range', { from: 100, to: 100 + 401 * 86400 }, alice) as unknown as { code: number; reason: string };
    expect([r.code, r.reason]).toEqual([422, 'calendar.range_invalid']);
  });

  it('a view cached by another process sees edits made elsewhere: the row version, not a timer, decides', async () => {
    // A second CalendarService on the same database stands for a second node of a cluster with its own cache.
    const db = s.rt.services.db;
    const other = new CalendarService({ db });
    const user = Number((await sql<{ id: number }>`SELECT id FROM users WHERE email = 'alice@demo.test'`.execute(db)).rows[0]!.id);
    const ev = await create({ ...weekly, title: 'Before', freq: 'daily' });
    const [from, to] = [Date.parse('2026-03-01T00:00Z') / 1000, Date.parse('2026-03-08T00:00Z') / 1000];
    const mine = async () => (await other.occurrences(user, from, to)).filter((o) => o.id === ev.id);
    expect((await mine()).map((o) => o.title)).toEqual(Array(6).fill('Before'));
    // Two edits within one millisecond would share an updated_at; the version still moves.
    await s.post('/h5/calendar/update', { ...weekly, freq: 'daily', id: ev.id, title: 'After', scope: 'all' }, alice);
    await sql`UPDATE cal_events SET exdates = '{2026-03-03T09:00:00}' WHERE id = ${Number(ev.id)}`.execute(db);
    const after = await mine();
    expect(after.map((o) => o.title)).toEqual(Array(5).fill('After'));
    expect(after.map((o) => o.localStart)).not.toContain('2026-03-03T09:00');
    // The reminder planner's bookkeeping is no change to a view: the version stays.
    const version = async () => Number((await sql<{ version: number }>`SELECT version FROM cal_events WHERE id = ${Number(ev.id)}`.execute(db)).rows[0]!.version);
    const v = await version();
    await sql`UPDATE cal_events SET reminders_until = now() WHERE id = ${Number(ev.id)}`.execute(db);
    expect(await version()).toBe(v);
    await s.post('/h5/calendar/delete', { id: ev.id }, alice);
    expect(await mine()).toEqual([]);
  });

  it('finds one-off events by a bounded scan, long ones (over 7 days) too', async () => {
    const short = await create({ ...weekly, freq: 'none', title: 'Short', start: '2026-05-01T09:00', end: '2026-05-07T09:00' });
    const long = await create({ ...weekly, freq: 'none', title: 'Long', start: '2026-04-01T09:00', end: '2026-05-20T09:00' });
    const ids = (await range('2026-05-06T00:00Z', '2026-05-07T00:00Z')).map((o) => o.id);
    expect(ids.sort()).toEqual([short.id, long.id].sort());
    expect((await range('2026-05-10T00:00Z', '2026-05-11T00:00Z')).map((o) => o.id)).toEqual([long.id]);
    for (const e of [short, long]) await s.post('/h5/calendar/delete', { id: e.id }, alice);
  });
});
