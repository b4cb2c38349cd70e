import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The mail statuses (replied, forwarded, sending, failed, recalled…) are 11 px text on a
// tinted pill. axe in e2e/tests/traps.test.ts only sees the statuses the demo mail happens to
// have (it found "replied" and "forwarded" at 4.48:1); this checks every pill's colours.

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('mail status pills', () => {
  const css = readFileSync(path.join(import.meta.dirname, '../styles.css'), 'utf8');
  const rules = [...css.matchAll(/\.mw-status\.is-(\w+)\s*\{\s*background:\s*(#[0-9a-f]{6});\s*color:\s*(#[0-9a-f]{6});/gi)];

  it('finds the four kinds of pill', () => {
    expect(rules.map((r) => r[1])).toEqual(['done', 'busy', 'bad', 'off']);
  });

  it('keeps 4.5:1 for each (WCAG AA, small text)', () => {
    for (const [, kind, background, color] of rules) {
      expect(contrast(color!, background!), kind).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('measures contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#1a6fc4', '#e8f1fd')).toBeLessThan(4.5); // the colour axe refused
  });
});
