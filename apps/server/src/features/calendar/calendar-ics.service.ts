import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import * as repo from './calendar.repository.js';
import { lastOf, specOf } from './event-fields.js';
import { exportIcs, firstInstant, parseIcs, type ImportedEvent } from './ics.js';
import { expand } from './recurrence.js';
import { formatWall, isTimeZone, parseWall } from './zoned-time.js';

const MAX_IMPORT = 2000;
const MAX_REMINDER_MIN = 20160;
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** .ics export and import, and the private read-only subscription feed (a random token, revocable). */
export class CalendarIcsService {
  constructor(private readonly db: Db) {}

  async export(userId: number, name: string): Promise<string> {
    return exportIcs(await repo.allEvents(this.db, userId), name);
  }

  /** A new feed token; any earlier one stops working. Only its hash is stored. */
  async rotateFeed(userId: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await repo.setFeed(this.db, userId, hash(token));
    return token;
  }

  async revokeFeed(userId: number): Promise<void> {
    await repo.dropFeed(this.db, userId);
  }

  async feed(token: string): Promise<string> {
    const owner = token.length >= 32 ? await repo.feedOwner(this.db, hash(token)) : null;
    if (owner === null) throw notFound('Calendar feed');
    return this.export(owner, 'Mailwing');
  }

  /** Imports the VEVENTs it can read; returns how many were taken and skipped. Nothing is stored if the file is not iCalendar. */
  async import(userId: number, text: string, defaultTz: string): Promise<{ imported: number; skipped: number }> {
    let events: ImportedEvent[];
    try {
      events = parseIcs(text, defaultTz);
    } catch {
      throw invalid('ics', 'is not an iCalendar file', 'calendar.ics_invalid');
    }
    if (events.length > MAX_IMPORT) throw invalid('ics', `holds more than ${MAX_IMPORT} events`, 'calendar.ics_too_many');
    let skipped = 0;
    const masters = new Map<string, number>();
    return this.db.transaction().execute(async (trx) => {
      // Series first, so the changed occurrences (RECURRENCE-ID) find theirs.
      for (const e of [...events.filter((x) => !x.recurrenceId), ...events.filter((x) => x.recurrenceId)]) {
        const row = rowOf(e);
        const series = e.recurrenceId ? masters.get(e.uid) : undefined;
        if (!row || (e.recurrenceId && series === undefined)) {
          skipped++;
          continue;
        }
        const ins = await repo.insertEvent(trx, { user_id: userId, ...row, uid: e.uid || randomUUID(), series_id: series ?? null, recurrence_id: e.recurrenceId, ...(series ? { rrule: null, lunar: false } : {}) });
        if (!e.recurrenceId) masters.set(e.uid, ins.id);
      }
      return { imported: events.length - skipped, skipped };
    });
  }
}

/** The columns of an imported event, or null when it cannot be kept (bad zone, dates or rule). */
export function rowOf(e: ImportedEvent) {
  if (!isTimeZone(e.tz)) return null;
  const start = parseWall(e.start);
  const end = Math.max(parseWall(e.end), start);
  if (Number.isNaN(start) || Number.isNaN(end)) return null;
  const row = {
    title: (e.title.trim() || '(no title)').slice(0, 100), description: e.description.slice(0, 2000), category: 'other', all_day: e.allDay,
    start_local: formatWall(start), end_local: formatWall(end), tz: e.tz, rrule: e.rrule, exdates: e.exdates, lunar: e.lunar && e.rrule !== null,
    reminder_min: e.reminder >= 0 && e.reminder <= MAX_REMINDER_MIN ? e.reminder : -1,
  };
  try {
    const first = firstInstant(e);
    const spec = specOf(row);
    expand(spec, first, first + 1);
    return { ...row, first_at: new Date(first), last_at: lastOf(spec, first) };
  } catch {
    return null;
  }
}
