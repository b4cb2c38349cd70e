import { describe, expect, it } from 'vitest';
import { en } from './en';
import { enSettings } from './en-settings';
import { zh } from './zh';
import { zhSettings } from './zh-settings';

describe('settings strings', () => {
  it('zh has a non-empty text of the same kind for every en key', () => {
    for (const key of Object.keys(enSettings) as Array<keyof typeof enSettings>) {
      expect(typeof zhSettings[key], key).toBe(typeof enSettings[key]);
      if (typeof zhSettings[key] === 'string') expect(zhSettings[key], key).not.toBe('');
    }
  });

  it('the agreement has the same sections and paragraphs in both languages', () => {
    expect(zhSettings.agreementSections.map((s) => s.paragraphs.length)).toEqual(enSettings.agreementSections.map((s) => s.paragraphs.length));
  });

  it('overrides none of the shared strings', () => {
    for (const key of Object.keys(enSettings)) {
      expect(key in en, key).toBe(false);
      expect(key in zh, key).toBe(false);
    }
  });
});
