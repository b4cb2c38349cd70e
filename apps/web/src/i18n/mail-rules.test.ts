import { describe, expect, it } from 'vitest';
import { en } from './en';
import { enMailRules } from './en-mail-rules';
import { zhMailRules } from './zh-mail-rules';

describe('mail rules catalogue', () => {
  it('zh has a non-empty text of the same kind for every en key, and shadows nothing', () => {
    expect(Object.keys(zhMailRules).sort()).toEqual(Object.keys(enMailRules).sort());
    for (const key of Object.keys(enMailRules) as Array<keyof typeof enMailRules>) {
      expect(typeof zhMailRules[key]).toBe(typeof enMailRules[key]);
      if (typeof zhMailRules[key] === 'string') expect(zhMailRules[key]).not.toBe('');
    }
    expect(Object.keys(enMailRules).filter((k) => k in en)).toEqual([]);
  });

  it('says the dry-run line in both languages', () => {
    expect(enMailRules.dryRun(37, 500)).toBe('Matches 37 of the last 500 mails');
    expect(zhMailRules.dryRun(37, 500)).toBe('最近 500 封邮件中有 37 封匹配');
  });
});
