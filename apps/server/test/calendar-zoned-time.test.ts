import { describe, expect, it } from 'vitest';
import { formatWall, instantOf, parseWall, wallOf } from '../src/features/calendar/zoned-time.js';

// formatWall and instantOf are the hot path of every view (recurrence.ts); their fast forms
// must agree with the plain ones: toISOString, and a wall time read back through wallOf.
describe('zoned time fast paths', () => {
  it('formatWall equals toISOString for every day from 1900 to 2100 and odd times of day', () => {
    for (let day = Date.UTC(1900, 0, 1); day < Date.UTC(2101, 0, 1); day += 86_400_000) {
      const ms = day + ((day / 86_400_000) % 86_399) * 1000;
      expect(formatWall(ms)).toBe(new Date(ms).toISOString().slice(0, 19));
    }
    expect(formatWall(parseWall('2028-02-29T23:59:59'))).toBe('2028-02-29T23:59:59');
  });

  it('instantOf gives the wall time back, and the earlier offset in a gap or an overlap (RFC 5545 §3.3.5)', () => {
    for (const tz of ['America/New_York', 'Europe/London', 'Asia/Shanghai', 'Australia/Lord_Howe']) {
      for (let w = parseWall('2026-01-01T00:30'); w < parseWall('2027-01-01'); w += 3_600_000) {
        const t = instantOf(w, tz);
        const back = wallOf(t, tz);
        // In a spring-forward gap the wall time does not exist: it is read with the offset before the gap.
        if (back !== w) expect(back - w).toBeGreaterThan(0);
        else expect(wallOf(t - 3_600_000, tz) === w && t - 3_600_000 < t).toBe(false);
      }
    }
    expect(new Date(instantOf(parseWall('2026-03-08T02:30'), 'America/New_York')).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(new Date(instantOf(parseWall('2026-11-01T01:30'), 'America/New_York')).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });
});
