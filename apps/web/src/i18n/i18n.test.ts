import { describe, expect, it } from 'vitest';
import { defaultLanguage, getLanguage, messages, setLanguage } from './index';
import { en } from './en';
import { zh } from './zh';

describe('i18n', () => {
  it('defaults to zh for zh* system languages, else en (spec §9)', () => {
    expect(defaultLanguage('zh-CN')).toBe('zh');
    expect(defaultLanguage('zh-Hant-TW')).toBe('zh');
    expect(defaultLanguage('en-US')).toBe('en');
    expect(defaultLanguage('ja')).toBe('en');
    expect(defaultLanguage(undefined)).toBe('en');
  });

  it('persists the choice and switches at once', () => {
    setLanguage('zh');
    expect(localStorage.getItem('language')).toBe('zh');
    expect(getLanguage()).toBe('zh');
    expect(messages().loadMore).toBe('加载更多');
    setLanguage('en');
    expect(messages().noMore).toBe('no more');
  });

  it('zh has a non-empty text for every en key', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(typeof zh[key]).toBe(typeof en[key]);
      if (typeof zh[key] === 'string') expect(zh[key]).not.toBe('');
    }
  });
});
