import { describe, expect, it } from 'vitest';
import { SecurityMessages } from '@mailwing/shared';
import { en } from './en';
import { enSecurity } from './en-security';
import { zhSecurity } from './zh-security';

describe('security catalogue', () => {
  it('zh has a non-empty text of the same kind for every en key', () => {
    expect(Object.keys(zhSecurity).sort()).toEqual(Object.keys(enSecurity).sort());
    for (const key of Object.keys(enSecurity) as Array<keyof typeof enSecurity>) {
      expect(typeof zhSecurity[key]).toBe(typeof enSecurity[key]);
      if (typeof zhSecurity[key] === 'string') expect(zhSecurity[key]).not.toBe('');
    }
  });

  it('does not shadow a key of the main catalogue', () => {
    expect(Object.keys(enSecurity).filter((k) => k in en)).toEqual([]);
  });

  it('says the spec’s messages (§5, §8) in English', () => {
    for (const text of [SecurityMessages.codeEmpty, SecurityMessages.answerEmpty, SecurityMessages.passwordMismatch, SecurityMessages.contactPostmaster]) {
      expect(Object.values(enSecurity).some((v) => typeof v === 'string' && v.toLowerCase() === text)).toBe(true);
    }
  });
});
