import type { ViewRow } from './calendar.repository.js';
import { specOf } from './event-fields.js';
import { expand, type Instance, type SeriesSpec } from './recurrence.js';

interface Entry { row: ViewRow; spec: SeriesSpec; windows: Map<string, Instance[]> }

/**
 * What a view needs of each event, by id, with the row's version (migration 023: a trigger
 * bumps it on every change that matters to a view), so a month view reads two ints per event
 * from the database and only the fields of events it has not seen at that version. The
 * database says which ids are in the window and at which version, so an entry can never
 * answer for a changed or deleted event, nor for another mailbox's. Expansions of a series
 * are kept for the last few windows asked. Least recently used entries go first.
 */
export class ViewCache {
  private readonly map = new Map<number, Entry>();

  constructor(private readonly max = 50_000, private readonly windowsPerSeries = 3) {}

  /** The row of an id at a version, or undefined (then fetch it and put it). */
  row(id: number, version: number): ViewRow | undefined {
    const e = this.map.get(id);
    if (!e || e.row.version !== version) return undefined;
    this.map.delete(id);
    this.map.set(id, e);
    return e.row;
  }

  put(row: ViewRow): void {
    this.map.delete(row.id);
    this.map.set(row.id, { row, spec: specOf(row), windows: new Map() });
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }

  /** The occurrences of a cached row overlapping [fromMs, toMs). */
  occurrences(row: ViewRow, fromMs: number, toMs: number): Instance[] {
    const e = this.map.get(row.id);
    if (!e || e.row !== row) return expand(specOf(row), fromMs, toMs);
    if (!row.rrule) return expand(e.spec, fromMs, toMs);
    const key = `${fromMs}:${toMs}`;
    let list = e.windows.get(key);
    if (!list) {
      list = expand(e.spec, fromMs, toMs);
      e.windows.set(key, list);
      if (e.windows.size > this.windowsPerSeries) e.windows.delete(e.windows.keys().next().value!);
    }
    return list;
  }
}
