import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS, ReminderService } from '../src/features/calendar/reminder.service.js';
import { startDemo, type TestServer } from './harness.js';

// Reminders are jobs in the database, sent exactly once per (event, occurrence, offset)
// within 60 s of their time, surviving a SIGKILL. Time moves by setting the clock, never by sleeping.

let s: TestServer;
let alice: string;
beforeAll(async () => ({ s, alice } = await startDemo()));
afterAll(async () => s?.stop());

type Job = { state: string; due_at: Date; sent_at: Date | null; occurrence_at: Date; attempts: number };
const jobsOf = async (eventId: string) =>
  (await sql<Job>`SELECT state, due_at, sent_at, occurrence_at, attempts FROM cal_reminders WHERE event_id = ${Number(eventId)} ORDER BY occurrence_at`.execute(s.rt.services.db)).rows;
const inbox = async (token: string, title: string) =>
  (await s.get<{ list: { subject: string }[] }>('/h5/mail/list', { mid: '0', page: 1, size: 100 }, token)).data.list.filter((m) => m.subject.includes(title));
const at = (iso: string) => new Date(iso).getTime();

describe('calendar reminders', () => {
  it('plans one job per occurrence, sends each once at its time, and two nodes never send one twice', async () => {
    const ev = await s.post<{ id: string }>('/h5/calendar/create', {
      title: 'Weekly sync', start: '2027-03-01T09:00', end: '2027-03-01T09:30', tz: 'Asia/Shanghai', freq: 'weekly', weekdays: 'MO', reminder: 15,
    }, alice);
    expect(ev.code).toBe(200);
    let now = at('2027-02-28T00:00:00Z');
    const node = () => new ReminderService({ db: s.rt.services.db, ingest: s.rt.services.ingest, hostname: 'mail.test', now: () => new Date(now) });
    const [a, b] = [node(), node()];
    await a.tick();
    await b.tick();
    const jobs = await jobsOf(ev.data.id);
    expect(jobs.map((j) => [j.state, j.due_at.toISOString()])).toEqual([['pending', '2027-03-01T00:45:00.000Z']]);
    // A minute before: nothing.
    now = at('2027-03-01T00:44:00Z');
    expect(await a.sendDue()).toBe(0);
    now = at('2027-03-01T00:45:10Z');
    const sent = await Promise.all([a.sendDue(), b.sendDue()]);
    expect(sent[0] + sent[1]).toBe(1);
    expect(await inbox(alice, 'Weekly sync')).toHaveLength(1);
    const [job] = await jobsOf(ev.data.id);
    expect(job!.state).toBe('sent');
    expect(job!.sent_at!.getTime() - job!.due_at.getTime()).toBeLessThanOrEqual(60_000);
    // A week on, the next occurrence: planned and sent once too.
    now = at('2027-03-07T00:00:00Z');
    await a.tick();
    now = at('2027-03-08T00:45:01Z');
    await Promise.all([a.tick(), b.tick()]);
    expect((await jobsOf(ev.data.id)).map((j) => j.state)).toEqual(['sent', 'sent']);
    expect(await inbox(alice, 'Weekly sync')).toHaveLength(2);
    await s.post('/h5/calendar/delete', { id: ev.data.id }, alice);
  });

  it('an edit drops the reminders not yet sent and plans them again from the new time', async () => {
    const body = { title: 'Dentist', start: '2027-04-01T10:00', end: '2027-04-01T11:00', tz: 'Asia/Shanghai', reminder: 60 };
    const ev = await s.post<{ id: string }>('/h5/calendar/create', body, alice);
    let now = at('2027-03-31T12:00:00Z');
    const node = new ReminderService({ db: s.rt.services.db, ingest: s.rt.services.ingest, hostname: 'mail.test', now: () => new Date(now) });
    await node.tick();
    expect((await jobsOf(ev.data.id)).map((j) => j.due_at.toISOString())).toEqual(['2027-04-01T01:00:00.000Z']);
    await s.post('/h5/calendar/update', { ...body, id: ev.data.id, start: '2027-04-01T14:00', end: '2027-04-01T15:00', reminder: 120 }, alice);
    now = at('2027-03-31T12:00:01Z');
    await node.tick();
    expect((await jobsOf(ev.data.id)).map((j) => j.due_at.toISOString())).toEqual(['2027-04-01T04:00:00.000Z']);
    await s.post('/h5/calendar/delete', { id: ev.data.id }, alice);
  });

  it('is sent exactly once across a kill -9 between filing the mail and recording it', async () => {
    const ev = await s.post<{ id: string }>('/h5/calendar/create', {
      title: 'Board meeting', start: '2027-05-10T09:00', end: '2027-05-10T10:00', tz: 'Europe/London', reminder: 30,
    }, alice);
    expect(ev.code).toBe(200);
    const due = at('2027-05-10T07:30:00Z');
    await s.halt();
    const child = (crash: boolean): ChildProcess => fork(fileURLToPath(new URL('./fixtures/reminder-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, DATA_DIR: s.config.dataDir, ...(s.config.databaseUrl ? { DATABASE_URL: s.config.databaseUrl } : {}), PARSE_WORKERS: '0', LOG_LEVEL: 'silent', ...(crash ? { CRASH_AFTER_MAIL: '1' } : {}) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const next = (c: ChildProcess) => new Promise<Record<string, unknown>>((resolve) => c.once('message', (m) => resolve(m as Record<string, unknown>)));
    const run = async (c: ChildProcess, clock: number) => {
      const reply = next(c);
      c.send({ clock });
      return reply;
    };

    const first = child(true);
    expect(await next(first)).toEqual({ ready: true });
    expect(await run(first, due - 3_600_000)).toEqual({ done: 1 });
    const mailed = await run(first, due + 5_000);
    expect(mailed).toHaveProperty('mailed');
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;

    const second = child(false);
    expect(await next(second)).toEqual({ ready: true });
    // Still leased to the dead node: nothing yet.
    expect(await run(second, due + 10_000)).toEqual({ done: 0 });
    // The lease runs out inside the 60 s: claimed again, the mail is found, the job recorded, nothing filed twice.
    expect(await run(second, due + 5_000 + LEASE_MS + 1_000)).toEqual({ done: 1 });
    expect(await run(second, due + 3_600_000)).toEqual({ done: 0 });
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));

    await s.restart({ workers: false });
    const token = await s.login('alice@demo.test');
    expect(await inbox(token, 'Board meeting')).toHaveLength(1);
    const [job] = await jobsOf(ev.data.id);
    expect([job!.state, job!.attempts]).toEqual(['sent', 2]);
    expect(job!.sent_at!.getTime() - due).toBeLessThanOrEqual(60_000);
  }, 120_000);
});
