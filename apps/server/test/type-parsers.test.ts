import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '../src/db/connect.js';
import { parseTimestamptz } from '../src/db/type-parsers.js';

// db/type-parsers.ts reads timestamptz text by position. The truth it is held to is the
// database's own: for each value, the milliseconds since the epoch that PostgreSQL (or PGlite)
// computes, in time zones with whole-hour, half-hour, negative and historical (seconds) offsets.

describe('timestamptz as rows carry it', () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await connect({ databaseUrl: process.env.DATABASE_URL, dataDir: '', memory: true });
  });
  afterAll(() => h.close());

  for (const zone of ['UTC', 'Asia/Shanghai', 'Asia/Kolkata', 'America/St_Johns', 'Europe/Amsterdam']) {
    it(`agrees with the database in ${zone}`, async () => {
      const rows = await h.db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('TimeZone', ${zone}, true)`.execute(trx);
        // Microsecond instants spread over 1000–9999 (Amsterdam's 1900s offset has seconds: the fallback),
        // plus whole seconds, the epoch, and just either side of it.
        return (await sql<{ ts: Date; text: string; ms: number }>`
          SELECT ts, ts::text AS text, floor(extract(epoch FROM ts) * 1000)::int8 AS ms FROM (
            SELECT timestamptz '1000-01-01 00:00:00+00' + make_interval(secs => (i * 2654435.761) % 283996800000 + (i % 1000000) / 1e6) AS ts FROM generate_series(1, 3000) AS i
            UNION ALL SELECT timestamptz '2026-11-29 16:10:14+00'
            UNION ALL SELECT timestamptz '1970-01-01 00:00:00+00'
            UNION ALL SELECT timestamptz '1969-12-31 23:59:59.999500+00'
            UNION ALL SELECT timestamptz '1970-01-01 00:00:00.000999+00'
            UNION ALL SELECT timestamptz '1910-06-01 12:00:00+00') t`.execute(trx)).rows;
      });
      expect(rows.length).toBe(3005);
      for (const r of rows) {
        expect(r.ts).toBeInstanceOf(Date);
        expect([r.text, r.ts.getTime()]).toEqual([r.text, r.ms]);
      }
    });
  }

  it('reads the one form itself; anything else is left to pg\'s parser, which rows still go through', async () => {
    expect(parseTimestamptz('2026-11-29 16:10:14.5+00')?.toISOString()).toBe('2026-11-29T16:10:14.500Z');
    expect(parseTimestamptz('2026-11-29 21:40:14.123456+05:30')?.toISOString()).toBe('2026-11-29T16:10:14.123Z');
    expect(parseTimestamptz('2026-11-29 12:40:14-03:30')?.toISOString()).toBe('2026-11-29T16:10:14.000Z');
    for (const other of ['infinity', '-infinity', '0099-01-01 00:00:00+00', '2000-01-01 00:00:00+00 BC', '1900-01-01 00:19:32+00:19:32', '2026-11-29', '2026-11-29 16:10:14', '2026-1x-29 16:10:14+00']) {
      expect(parseTimestamptz(other)).toBeUndefined();
    }
    const { rows } = await sql<{ a: unknown; b: Date; c: Date }>`SELECT timestamptz 'infinity' AS a, timestamptz '0050-03-01 10:00:00+00' AS b, timestamptz '0002-01-01 00:00:00+00 BC' AS c`.execute(h.db);
    expect(rows[0]!.a).toBe(Infinity);
    expect(rows[0]!.b.toISOString()).toBe('0050-03-01T10:00:00.000Z');
    expect(rows[0]!.c.getUTCFullYear()).toBe(-1);
  });
});
