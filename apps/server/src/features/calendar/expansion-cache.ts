import type { Instance } from './recurrence.js';

/**
 * Expansions of a series by (row id, row version, window). A series row changes only
 * through calendar.repository's updateEvent, which stamps updated_at, so a key with the
 * stamp can never answer with an old rule. Least recently used entries go first.
 */
export class ExpansionCache {
  private readonly map = new Map<string, Instance[]>();

  constructor(private readonly max = 20_000) {}

  get(id: number, version: Date, from: number, to: number, make: () => Instance[]): Instance[] {
    const key = `${id}:${version.getTime()}:${from}:${to}`;
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const made = make();
    this.map.set(key, made);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return made;
  }
}
