import { describe, expect, it } from 'vitest';
import { indexTokens } from '@mailwing/shared';
import { contentTokens, sortedDistinct } from '../src/features/search/content-tokens.js';

// The database builds a mail's tsvector from these tokens and relies on their order being the
// plain string order (filing.repository.ts); sortedDistinct must return exactly what the
// default sort of the distinct tokens returns, whatever the scripts and lengths.

/** A small deterministic generator, so a failure names its seed. */
function words(seed: number, n: number): string[] {
  let s = seed;
  const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
  // Letters, digits, CJK, a Latin letter with an accent, a character beyond the BMP (two units) and the lowest unit after NUL.
  const alphabet = ['a', 'b', 'z', 'A', '0', '9', 'é', '季', '度', '报', '𠀋', '😀', '\u0001', 'ÿ', '\uffff'];
  return Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(next() * 4) }, () => alphabet[Math.floor(next() * alphabet.length)]!).join(''));
}

describe('sortedDistinct', () => {
  it('returns the default sort of the distinct tokens', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const tokens = words(seed, 1 + (seed % 50) * 20);
      expect(sortedDistinct(tokens), `seed ${seed}`).toEqual([...new Set(tokens)].sort());
    }
  });

  it('keeps one of each token, and copes with none and with the empty string', () => {
    expect(sortedDistinct([])).toEqual([]);
    expect(sortedDistinct(['b', '', 'a', 'b', '', 'ab', 'a'])).toEqual(['', 'a', 'ab', 'b']);
  });

  it('orders a mail\'s tokens as the database expects them', () => {
    const mail = { subject: 'Q3季度报告 review', from: { name: 'Zoë', address: 'zoe@example.org' }, to: [{ name: '', address: 'bob@demo.test' }], cc: [], text: 'Numbers 2026 and 第三季度报告 attached, 😀 thanks', attachments: [{ name: 'report.pdf' }] };
    const tokens = contentTokens(mail);
    expect(tokens).toEqual([...new Set(indexTokens([mail.subject, 'Zoë', 'zoe@example.org', '', 'bob@demo.test', mail.text, 'report.pdf'].join('\n')))].sort());
    expect(tokens).toContain('季度');
    expect(tokens).toContain('zoe@example.org');
  });
});
