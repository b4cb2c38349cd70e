import { describe, expect, it } from 'vitest';
import { indexTokens, queryTokens } from '../src/search.js';

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
