import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type TestServer } from './harness.js';

type Occ = { id: string; title: string; start: number; localStart: string; reminder: number; lunar: boolean };

let s: TestServer;
let alice: string;
let bob: string;
beforeAll(async () => ({ s, alice, bob } = await startDemo()));
afterAll(async () => s?.stop());

const range = async (token: string) =>
  (await s.get<{ list: Occ[] }>('/h5/calendar/range', { from: Date.parse('2026-03-01T00:00Z') / 1000, to: Date.parse('2026-12-31T00:00Z') / 1000 }, token)).data.list;
const exportOf = async (token: string) => (await fetch(`${s.base}/h5/calendar/export`, { headers: { authorization: `Bearer ${token}` } })).text();

describe('.ics export, import and the subscription feed', () => {
  it('exports series, exceptions, changed occurrences, lunar dates and reminders, and imports them back unchanged', async () => {
    const weekly = { title: 'Standup', start: '2026-03-02T09:00', end: '2026-03-02T09:15', tz: 'America/New_York', freq: 'weekly', weekdays: 'MO', reminder: 10, ends: 'count', count: '8' };
    const ev = (await s.post<{ id: string }>('/h5/calendar/create', weekly, alice)).data;
    const occ = (await range(alice)).filter((o) => o.id === ev.id);
    await s.post('/h5/calendar/delete', { id: ev.id, scope: 'one', occurrence: occ[1]!.start }, alice);
    await s.post('/h5/calendar/update', { ...weekly, title: 'Standup (moved)', start: '2026-03-17T10:00', end: '2026-03-17T10:15', freq: 'none', id: ev.id, scope: 'one', occurrence: occ[2]!.start }, alice);
    await s.post('/h5/calendar/create', { title: '中秋', start: '2026-09-25', end: '2026-09-25', allDay: 1, freq: 'yearly', lunar: 1, tz: 'Asia/Shanghai', reminder: -1 }, alice);

    const ics = await exportOf(alice);
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toMatch(/RRULE:FREQ=WEEKLY;(BYDAY=MO;COUNT=8|COUNT=8;BYDAY=MO)/);
    expect(ics).toContain('EXDATE;TZID=America/New_York:20260309T090000');
    expect(ics).toContain('RECURRENCE-ID;TZID=America/New_York:20260316T090000');
    expect(ics).toContain('X-MAILWING-LUNAR:TRUE');
    expect(ics).toContain('TRIGGER:-PT10M');

    const r = await s.post<{ imported: number; skipped: number }>('/h5/calendar/import', { ics, tz: 'Asia/Shanghai' }, bob);
    expect(r.data).toEqual({ imported: 3, skipped: 0 });
    const shape = (list: Occ[]) => list.map((o) => [o.title, o.start, o.localStart, o.reminder, o.lunar]);
    expect(shape(await range(bob))).toEqual(shape(await range(alice)));
  });

  it('imports events from another calendar: UTC times, a TZID start with UNTIL in UTC, DURATION', async () => {
    const ics = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Other//EN',
      'BEGIN:VEVENT', 'UID:a@other', 'DTSTAMP:20260101T000000Z', 'DTSTART:20260405T020000Z', 'DURATION:PT1H', 'SUMMARY:UTC call', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:b@other', 'DTSTAMP:20260101T000000Z', 'DTSTART;TZID=Europe/London:20260323T090000', 'DTEND;TZID=Europe/London:20260323T100000',
      'RRULE:FREQ=WEEKLY;UNTIL=20260406T080000Z', 'SUMMARY:London weekly', 'END:VEVENT',
      'END:VCALENDAR', '',
    ].join('\r\n');
    const token = await s.login('admin@demo.test');
    expect((await s.post('/h5/calendar/import', { ics, tz: 'Asia/Shanghai' }, token)).data).toEqual({ imported: 2, skipped: 0 });
    const list = await range(token);
    expect(list.map((o) => [o.title, new Date(o.start * 1000).toISOString().slice(0, 16), o.localStart])).toEqual([
      ['London weekly', '2026-03-23T09:00', '2026-03-23T09:00'],
      ['London weekly', '2026-03-30T08:00', '2026-03-30T09:00'],
      ['UTC call', '2026-04-05T02:00', '2026-04-05T10:00'],
      ['London weekly', '2026-04-06T08:00', '2026-04-06T09:00'],
    ]);
  });

  it('refuses a file that is not iCalendar and stores nothing', async () => {
    const token = await s.login('admin@demo.test');
    const before = (await range(token)).length;
    const r = await s.post('/h5/calendar/import', { ics: 'hello, world' }, token) as unknown as { code: number; reason: string };
    expect([r.code, r.reason]).toEqual([422, 'calendar.ics_invalid']);
    expect((await range(token)).length).toBe(before);
  });

  it('serves a private read-only feed by its key alone, until it is rotated or revoked', async () => {
    const feed = async (key: string) => {
      const res = await fetch(`${s.base}/h5/calendar/feed.ics?key=${encodeURIComponent(key)}`);
      const text = await res.text();
      return text.startsWith('BEGIN:VCALENDAR') ? 'ics' : (JSON.parse(text) as { code: number }).code;
    };
    const first = (await s.post<{ key: string; path: string }>('/h5/calendar/feed', {}, alice)).data;
    expect(first.key.length).toBeGreaterThanOrEqual(43);
    expect(await feed(first.key)).toBe('ics');
    expect(await feed('x'.repeat(43))).toBe(404);
    const second = (await s.post<{ key: string }>('/h5/calendar/feed', {}, alice)).data;
    expect(await feed(first.key)).toBe(404);
    expect(await feed(second.key)).toBe('ics');
    await s.post('/h5/calendar/feed-revoke', {}, alice);
    expect(await feed(second.key)).toBe(404);
  });
});
