import { describe, expect, it } from 'vitest';
import { indexTokens, queryTokens, replaceEmails } from '../src/search.js';

describe('search tokens', () => {
  it('cuts Chinese into bigrams so substrings match', () => {
    const idx = new Set(indexTokens('第三季度报告'));
    for (const q of ['季度', '报告', '季度报告', '第三季度报告']) {
      expect(queryTokens(q).every((t) => idx.has(t.token)), q).toBe(true);
    }
    expect(queryTokens('季报').every((t) => idx.has(t.token))).toBe(false);
  });

  it('keeps words, mixed scripts and addresses', () => {
    const idx = indexTokens('Q3季度Report from Alice <alice.wang@demo.test>, ＡＢＣ');
    expect(idx).toEqual(expect.arrayContaining(['q3', '季度', 'report', 'alice.wang@demo.test', 'alice.wang', 'demo.test', 'alice', 'wang', 'demo', 'test', 'abc']));
    expect(queryTokens('alice.wang@demo.test')[0]).toEqual({ token: 'alice.wang@demo.test', prefix: false });
    expect(queryTokens('budget rep')).toEqual([{ token: 'budget', prefix: false }, { token: 'rep', prefix: true }]);
    expect(queryTokens('季')).toEqual([{ token: '季', prefix: true }]);
  });
});

describe('replaceEmails', () => {
  const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
  // Characters that matter to the pattern: local-part-only signs, label signs, '@', '.',
  // separators, CJK, a letter outside the BMP (a surrogate pair), lone surrogates, an emoji.
  const ALPHABET = ['a', 'b', 'Z', '7', '.', '_', '%', '+', '-', '@', '@', '@', ' ', '\n', ',', '<', '>', '季', 'é', '𝒜', '\ud835', '\udc9c', '😀', '\u0301', 'Ａ'];

  function same(text: string): void {
    const want: string[] = [];
    const expected = text.replace(EMAIL, (a) => (want.push(a), `[${a}]`));
    const got: string[] = [];
    const actual = replaceEmails(text, (a) => (got.push(a), `[${a}]`));
    expect(actual, JSON.stringify(text)).toBe(expected);
    expect(got, JSON.stringify(text)).toEqual(want);
  }

  it('gives what the global pattern gives, over many generated texts', () => {
    // A fixed-seed generator, so a failure repeats.
    let seed = 13;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 30_000; i++) {
      const len = rand(30);
      let text = '';
      for (let k = 0; k < len; k++) text += ALPHABET[rand(ALPHABET.length)];
      same(text);
    }
  });

  it('gives what the global pattern gives on mail-like texts', () => {
    for (const text of [
      '',
      'no address here',
      'On Mon, Alice <alice.wang@demo.test> wrote:\n> mail bob@x.org or a@b',
      'a@b.c.@d.e a@b.c_x@d.e @@x@y.z x@@y.z x@y. x@.y x@y..z ..@a.b',
      '𝒜𝒜@𝒜.𝒜 \ud835@a.b \udc9c@a.b a\ud835\udc9c@b.c 季度@报告.中国',
      `${'w'.repeat(5000)}@example.com and ${'x'.repeat(3000)}@nodot`,
    ]) same(text);
  });

  it('returns the text itself when it holds no address', () => {
    const text = 'plain words, 50% off, a-b_c.d';
    expect(replaceEmails(text, () => 'X')).toBe(text);
  });
});

describe('indexTokens without CJK', () => {
  it('keeps every word up to 64 characters, in order, with repeats', () => {
    const long = 'x'.repeat(65);
    expect(indexTokens(`Budget budget ${long} é-tude 42, bob@x.org`)).toEqual(['bob@x.org', 'bob', 'x.org', 'budget', 'budget', 'é', 'tude', '42', 'bob', 'x', 'org']);
  });
});
