import { randomUUID } from 'node:crypto';
import type { CalendarEvent, CalendarEventFields, Occurrence } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import * as repo from './calendar.repository.js';
import { lastOf, seriesFrom, specOf, toEvent, utcStamp } from './event-fields.js';
import { expand } from './recurrence.js';
import { ViewCache } from './expansion-cache.js';
import { attendeeList, type InviteService } from './invite.service.js';

export interface CalendarDeps { db: Db; now?: () => Date; /** Invitations by mail; without it attendees are ignored. */ invites?: InviteService }
export type EditScope = 'one' | 'following' | 'all';

const MAX_RANGE_S = 400 * 86_400;

/** Events of one mailbox: create, edit ("this one / this and following / all"), delete, and the occurrences in a range. */
export class CalendarService {
  private readonly db: Db;
  private readonly now: () => Date;
  private readonly invites: InviteService | undefined;
  private readonly views = new ViewCache();

  constructor(deps: CalendarDeps) {
    this.db = deps.db;
    this.now = deps.now ?? (() => new Date());
    this.invites = deps.invites;
  }

  async get(userId: number, id: string): Promise<CalendarEvent> {
    const row = await this.require(userId, id);
    const series = row.series_id ?? row.id;
    const attendees = (await this.invites?.attendees([series]))?.get(series) ?? [];
    return { ...toEvent(row), organizer: row.organizer, partstat: row.partstat, attendees };
  }

  // Every change and the invitation mail it causes commit together (InviteService.organise
  // queues the mail in the transaction); the runner is woken after the commit.

  async create(userId: number, f: CalendarEventFields): Promise<CalendarEvent> {
    const people = f.attendees ? attendeeList(f.attendees) : [];
    const row = await this.change(async (trx) => {
      const row = await repo.insertEvent(trx, { user_id: userId, uid: randomUUID(), ...seriesFrom(f, this.now()) });
      if (people.length > 0) await this.invites?.organise(trx, userId, row.uid, people, { first: true });
      return row;
    });
    return this.get(userId, String(row.id));
  }

  async update(userId: number, id: string, f: CalendarEventFields, scope: EditScope, occurrence?: number): Promise<CalendarEvent> {
    const row = await this.require(userId, id);
    const fields = seriesFrom(f, this.now());
    const people = f.attendees === undefined ? undefined : attendeeList(f.attendees);
    if (!row.rrule || scope === 'all') {
      await this.change(async (trx) => {
        await repo.updateEvent(trx, userId, row.id, { ...fields, exdates: row.rrule && fields.rrule ? row.exdates : [] });
        const timesChanged = fields.start_local !== row.start_local || fields.end_local !== row.end_local || fields.rrule !== row.rrule || fields.tz !== row.tz;
        // An override's attendees are its series': only the series row changes the list.
        await this.invites?.organise(trx, userId, row.uid, row.series_id === null ? people : undefined, { timesChanged });
      });
      return this.get(userId, id);
    }
    const at = this.occurrenceOf(row, occurrence);
    if (scope === 'one') {
      const one = await this.change(async (trx) => {
        await this.exclude(trx, row, at.wall);
        // RFC 5545 §3.8.4.4: the changed instance keeps the series' UID and names the occurrence it replaces.
        const one = await repo.insertEvent(trx, { user_id: userId, uid: row.uid, ...fields, rrule: null, lunar: false, series_id: row.id, recurrence_id: at.wall });
        await this.invites?.organise(trx, userId, row.uid, undefined);
        return one;
      });
      return this.get(userId, String(one.id));
    }
    if (at.start === row.first_at.getTime()) return this.update(userId, id, f, 'all');
    const next = await this.change(async (trx) => {
      const had = this.invites && row.organizer === null ? ((await this.invites.attendees([row.id], trx)).get(row.id) ?? []).map((a) => a.email) : [];
      await this.truncate(trx, row, at.start);
      const next = await repo.insertEvent(trx, { user_id: userId, uid: randomUUID(), ...fields, exdates: row.exdates.filter((w) => w >= at.wall) });
      await repo.moveOverrides(trx, userId, row.id, at.wall, next.id);
      if (this.invites && row.organizer === null) {
        // The following part is a new series (a new UID): the same people are invited to it.
        await this.invites.organise(trx, userId, row.uid, undefined);
        await this.invites.organise(trx, userId, next.uid, people ?? had, { first: true });
      }
      return next;
    });
    return this.get(userId, String(next.id));
  }

  async remove(userId: number, id: string, scope: EditScope, occurrence?: number): Promise<void> {
    const row = await this.require(userId, id);
    if (!row.rrule || scope === 'all') {
      await this.change(async (trx) => {
        if (row.series_id !== null) {
          await repo.deleteEvent(trx, userId, row.id);
          await this.invites?.organise(trx, userId, row.uid, undefined);
          return;
        }
        await this.invites?.cancel(trx, userId, row.uid);
        await repo.deleteEvent(trx, userId, row.id);
      });
      return;
    }
    const at = this.occurrenceOf(row, occurrence);
    if (scope === 'one') {
      await this.change(async (trx) => {
        await this.exclude(trx, row, at.wall);
        await this.invites?.organise(trx, userId, row.uid, undefined);
      });
      return;
    }
    if (at.start === row.first_at.getTime()) return this.remove(userId, id, 'all');
    await this.change(async (trx) => {
      await this.truncate(trx, row, at.start);
      await repo.deleteOverridesFrom(trx, userId, row.id, at.wall);
      await this.invites?.organise(trx, userId, row.uid, undefined);
    });
  }

  private async change<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
    const out = await this.db.transaction().execute(fn);
    this.invites?.sent();
    return out;
  }

  /** Occurrences overlapping [from, to), unix seconds, in start order. */
  async occurrences(userId: number, from: number, to: number): Promise<Occurrence[]> {
    if (to <= from || to - from > MAX_RANGE_S) throw invalid('to', 'The range must be positive and at most 400 days', 'calendar.range_invalid');
    const listed = await repo.versionsInRange(this.db, userId, new Date(from * 1000), new Date(to * 1000));
    const rows = listed.map((l) => this.views.row(l.id, l.version));
    const missing = listed.filter((_, i) => rows[i] === undefined).map((l) => l.id);
    if (missing.length > 0) {
      // Fetched after the list: a row changed in between comes at its newer version, which is what a view read a moment later shows.
      const fetched = new Map((await repo.eventsByIds(this.db, userId, missing)).map((r) => [r.id, r]));
      listed.forEach((l, i) => {
        const r = fetched.get(l.id);
        if (r) this.views.put(r);
        rows[i] ??= r;
      });
    }
    const out: Occurrence[] = [];
    for (const r of rows) {
      if (!r) continue; // deleted between the two reads
      for (const o of this.views.occurrences(r, from * 1000, to * 1000)) {
        out.push({
          id: String(r.id), title: r.title, category: r.category, allDay: r.all_day, start: o.start / 1000, end: o.end / 1000,
          localStart: o.wall.slice(0, 16), tz: r.tz, recurring: r.rrule !== null, lunar: r.lunar, reminder: r.reminder_min,
        });
      }
    }
    return out.sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private occurrenceOf(row: repo.EventRow, occurrence: number | undefined) {
    const ms = (occurrence ?? NaN) * 1000;
    const hit = Number.isFinite(ms) ? expand(specOf(row), ms, ms + 1).find((o) => o.start === ms) : undefined;
    if (!hit) throw invalid('occurrence', 'is not an occurrence of this event', 'calendar.occurrence_unknown');
    return hit;
  }

  private async exclude(db: Db, row: repo.EventRow, wall: string): Promise<void> {
    await repo.updateEvent(db, row.user_id, row.id, { exdates: [...new Set([...row.exdates, wall])] });
  }

  /** Ends a series just before an occurrence: COUNT becomes the number before it, otherwise UNTIL one second before. */
  private async truncate(db: Db, row: repo.EventRow, atMs: number): Promise<void> {
    const spec = specOf(row);
    const before = expand(spec, row.first_at.getTime(), atMs, 100_000).filter((o) => o.start < atMs).length;
    const kept = row.rrule!.split(';').filter((p) => !/^(COUNT|UNTIL)=/.test(p));
    const rrule = [...kept, /COUNT=/.test(row.rrule!) ? `COUNT=${before}` : `UNTIL=${utcStamp(atMs - 1000)}`].join(';');
    await repo.updateEvent(db, row.user_id, row.id, { rrule, last_at: lastOf({ ...spec, rrule }, row.first_at.getTime()) });
  }

  private async require(userId: number, id: string): Promise<repo.EventRow> {
    const row = await repo.findEvent(this.db, userId, Number(id));
    if (!row) throw notFound('Calendar event');
    return row;
  }
}
