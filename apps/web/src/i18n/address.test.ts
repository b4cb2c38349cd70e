import { describe, expect, it } from 'vitest';
import { en } from './en';
import { enAddress } from './en-address';
import { zh } from './zh';
import { zhAddress } from './zh-address';

describe('address book strings', () => {
  it('zh has a non-empty text of the same kind for every en key', () => {
    for (const key of Object.keys(enAddress) as Array<keyof typeof enAddress>) {
      expect(typeof zhAddress[key], key).toBe(typeof enAddress[key]);
      if (typeof zhAddress[key] === 'string') expect(zhAddress[key], key).not.toBe('');
    }
  });

  it('overrides none of the shared strings', () => {
    for (const key of Object.keys(enAddress)) {
      expect(key in en, key).toBe(false);
      expect(key in zh, key).toBe(false);
    }
  });
});
