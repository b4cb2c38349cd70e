import { describe, expect, it } from 'vitest';
import { enOrganise } from './en-organise';
import { en } from './en';
import { zhOrganise } from './zh-organise';

describe('organise catalogue', () => {
  it('zh has a non-empty text of the same kind for every en key', () => {
    expect(Object.keys(zhOrganise).sort()).toEqual(Object.keys(enOrganise).sort());
    for (const key of Object.keys(enOrganise) as Array<keyof typeof enOrganise>) {
      expect(typeof zhOrganise[key]).toBe(typeof enOrganise[key]);
      if (typeof zhOrganise[key] === 'string') expect(zhOrganise[key]).not.toBe('');
    }
  });

  it('does not shadow a key of the main catalogue', () => {
    expect(Object.keys(enOrganise).filter((k) => k in en)).toEqual([]);
  });

  it('says where a deleted folder’s mail goes', () => {
    expect(enOrganise.deleteFolderConfirm(3, 0)).toBe('Its mail (3) moves to Deleted.');
    expect(enOrganise.deleteFolderConfirm(2, 1)).toBe('Its 1 folder inside goes too. Its mail (2) moves to Deleted.');
    expect(zhOrganise.deleteFolderConfirm(3, 0)).toContain('已删除');
  });
});
