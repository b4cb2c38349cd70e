import type pg from 'pg';

/**
 * How rows' values are read, the same for the main thread's pg and the PGlite thread's
 * (each has its own copy of the module).
 * - int8 (OID 20) as a JS number, not pg's string.
 * - timestamptz (OID 1184): PostgreSQL prints one form, `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM]`,
 *   read here by position. pg's own parser (postgres-date) runs three regular expressions per
 *   value; a page of `mail/list` has 60 of them, and they were 6 % of the server's CPU under
 *   load (issue 13). Any other text (infinity, BC, years outside 1000–9999, an offset with
 *   seconds) goes to pg's parser, which this one agrees with (test/type-parsers.test.ts).
 */
export function setTypeParsers(types: typeof pg.types): void {
  types.setTypeParser(20, (v: string) => Number(v));
  const current = types.getTypeParser(1184) as (text: string) => Date;
  // Set once: a second call must not make this parser its own fallback.
  if (current === timestamptz) return;
  fallback = current;
  types.setTypeParser(1184, timestamptz);
}

let fallback: (text: string) => Date = () => { throw new Error('setTypeParsers was not called'); };
const timestamptz = (text: string): Date => parseTimestamptz(text) ?? fallback(text);

/** The timestamp, or undefined for a text not in the one form (the caller falls back). */
export function parseTimestamptz(s: string): Date | undefined {
  const n = s.length;
  if (n < 22 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 32 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const year = digits(s, 0, 4);
  if (!(year >= 1000)) return undefined;
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    // Fractional seconds: milliseconds are their first three digits (microseconds are dropped, as Date has none).
    let scale = 100;
    for (i++; i < n; i++) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      ms += d * scale;
      scale /= 10;
    }
    ms = Math.trunc(ms);
  }
  const sign = s.charCodeAt(i) === 43 ? 1 : s.charCodeAt(i) === 45 ? -1 : 0;
  if (sign === 0) return undefined;
  let offset = digits(s, i + 1, 2) * 60;
  if (n === i + 6 && s.charCodeAt(i + 3) === 58) offset += digits(s, i + 4, 2);
  else if (n !== i + 3) return undefined;
  const t = Date.UTC(year, digits(s, 5, 2) - 1, digits(s, 8, 2), digits(s, 11, 2), digits(s, 14, 2), digits(s, 17, 2), ms) - sign * offset * 60_000;
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** The number `len` decimal digits at `at` spell, or NaN. */
function digits(s: string, at: number, len: number): number {
  let v = 0;
  for (let k = at; k < at + len; k++) {
    const d = s.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
}
