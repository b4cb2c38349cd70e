import { describe, expect, it } from 'vitest';
import { en } from './en';
import { zh } from './zh';
import { enMigrate } from './en-migrate';
import { enOrganise } from './en-organise';

// Issue 15: "1 minutes ago" and friends. Counts are worded by number in English; Chinese has no plural.
describe('counted words', () => {
  it('says one minute, and many minutes, in both languages', () => {
    expect(en.minutesAgo(1)).toBe('1 minute ago');
    expect(en.minutesAgo(5)).toBe('5 minutes ago');
    expect(zh.minutesAgo(1)).toBe('1分钟前');
    expect(zh.minutesAgo(59)).toBe('59分钟前');
  });

  it('has no "(s)" or plural after one', () => {
    expect(en.attempts(1)).toBe('1 attempt');
    expect(enOrganise.movedMany(1)).toBe('1 mail moved');
    expect(enMigrate.migRuns(1)).toBe('1 run');
    expect(enMigrate.annUnread(1)).toBe('1 new announcement');
    expect(enMigrate.migImported(2)).toBe('2 accounts queued');
  });
});
