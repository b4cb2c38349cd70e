import { describe, expect, it } from 'vitest';
import { expand } from '../src/features/calendar/recurrence.js';
import { parseWall } from '../src/features/calendar/zoned-time.js';

// The arithmetic walk of plain DAILY, WEEKLY, MONTHLY and YEARLY rules (recurrence.ts walkSimple) must give
// exactly what rrule gives: 800 random rules, windows and zones, compared occurrence by occurrence.

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

describe('plain daily, weekly, monthly and yearly rules walked without rrule', () => {
  it('match rrule on random rules, windows and zones (DST included)', () => {
    const rand = rng(7);
    const pick = <T>(a: readonly T[]) => a[Math.floor(rand() * a.length)]!;
    const zones = ['America/New_York', 'Europe/London', 'Asia/Shanghai', 'Australia/Lord_Howe'];
    const days = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
    let compared = 0;
    const kinds = new Set<string>();
    for (let i = 0; i < 800; i++) {
      // Half the starts on a 28th to 31st, or 29 February, where short months and years must be skipped.
      const late = rand() < 0.5;
      const day = late ? pick(['2025-01-31', '2025-03-30', '2024-02-29', '2025-05-29', '2025-08-31', '2026-01-28', '2028-02-29'])
        : new Date(Date.UTC(2025, 0, 1) + Math.floor(rand() * 900) * 86_400_000).toISOString().slice(0, 10);
      const start = parseWall(`${day}T${String(Math.floor(rand() * 24)).padStart(2, '0')}:30`);
      const parts = [`FREQ=${pick(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'])}`];
      if (rand() < 0.5) parts.push(`INTERVAL=${1 + Math.floor(rand() * 4)}`);
      if (parts[0] === 'FREQ=WEEKLY' && rand() < 0.7) parts.push(`BYDAY=${days.filter(() => rand() < 0.4).join(',') || 'TH'}`);
      const end = rand();
      if (end < 0.3) parts.push(`COUNT=${1 + Math.floor(rand() * 60)}`);
      else if (end < 0.6) parts.push(`UNTIL=${new Date(start + rand() * 400 * 86_400_000).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`);
      const spec = { startWall: start, durationMs: Math.floor(rand() * 5) * 3_600_000, tz: pick(zones), rrule: parts.join(';'), exdates: [] };
      const from = Date.UTC(2025, 0, 1) + Math.floor(rand() * 1000) * 86_400_000;
      const to = from + (1 + Math.floor(rand() * (parts[0] === 'FREQ=YEARLY' ? 3000 : 400))) * 86_400_000;
      const fast = expand(spec, from, to);
      if (fast.length > 0) kinds.add(parts[0]!);
      expect(fast, `${spec.rrule} ${spec.tz} ${new Date(start).toISOString()}`).toEqual(expand(spec, from, to, 5000, true));
      compared += fast.length;
    }
    expect(compared).toBeGreaterThan(3000);
    expect(kinds.size).toBe(4);
  });
});
