/**
 * Answers kept per process for a short time, for lookups on the SMTP hot path that change
 * rarely (issue 13: each was a database round trip on every message). What is cached must
 * be safe to be `ttlMs` stale in another process; the process that makes a change deletes
 * the key itself. Concurrent misses for one key share one load.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: Promise<V>; until: number }>();

  constructor(private readonly ttlMs: number, private readonly maxEntries = 10_000, private readonly now: () => number = Date.now) {}

  get(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) return hit.value;
    const value = load();
    // A failed load is not kept: the next caller asks again.
    value.catch(() => { if (this.entries.get(key)?.value === value) this.entries.delete(key); });
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
