import { describe, expect, it } from 'vitest';
import { CollectStatus } from '@mailwing/shared';
import { en } from './en';
import { enCollect } from './en-collect';
import { zh } from './zh';
import { zhCollect } from './zh-collect';

describe('collection strings', () => {
  it('zh has a non-empty text of the same kind for every en key', () => {
    for (const key of Object.keys(enCollect) as Array<keyof typeof enCollect>) {
      expect(typeof zhCollect[key], key).toBe(typeof enCollect[key]);
      if (typeof zhCollect[key] === 'string') expect(zhCollect[key], key).not.toBe('');
    }
    expect(Object.keys(zhCollect.collectErr).sort()).toEqual(Object.keys(enCollect.collectErr).sort());
    expect(zh.stCollect).not.toBe(en.stCollect);
  });

  it('words every error category the server reports, in both languages', () => {
    const kinds = CollectStatus.shape.errorKind.unwrap().options;
    for (const kind of kinds) {
      for (const m of [enCollect, zhCollect]) {
        expect(m.collectErr[kind], kind).toBeTruthy();
        expect(m.collectErrShort[kind], kind).toBeTruthy();
      }
    }
  });

  it('overrides none of the shared strings', () => {
    for (const key of Object.keys(enCollect)) {
      expect(key in en, key).toBe(false);
      expect(key in zh, key).toBe(false);
    }
  });
});
