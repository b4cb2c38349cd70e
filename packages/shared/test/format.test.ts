import { describe, expect, it } from 'vitest';
import { attachmentKind, badgeText, formatFileSize, formatMailTime, MAIL_TIME_WORDS_ZH } from '../src/format.js';

describe('formatFileSize', () => {
  it('uses B/KB/MB/GB/TB with two decimals', () => {
    expect(formatFileSize(0)).toBe('0.00 B');
    expect(formatFileSize(1023)).toBe('1023.00 B');
    expect(formatFileSize(1024)).toBe('1.00 KB');
    expect(formatFileSize(1536)).toBe('1.50 KB');
    expect(formatFileSize(5 * 1024 ** 2)).toBe('5.00 MB');
    expect(formatFileSize(2 * 1024 ** 3)).toBe('2.00 GB');
    expect(formatFileSize(3 * 1024 ** 4)).toBe('3.00 TB');
    expect(formatFileSize(5 * 1024 ** 5)).toBe('5120.00 TB');
    expect(formatFileSize(-1)).toBe('0.00 B');
  });
});

describe('formatMailTime', () => {
  const now = new Date(2026, 10, 22, 15, 30, 0);
  const at = (d: Date) => Math.floor(d.getTime() / 1000);
  it('says just now and minutes ago within the hour', () => {
    expect(formatMailTime(at(new Date(2026, 10, 22, 15, 29, 30)), now)).toBe('just now');
    expect(formatMailTime(at(new Date(2026, 10, 22, 15, 5, 0)), now)).toBe('25 minutes ago');
    expect(formatMailTime(at(new Date(2026, 10, 22, 15, 5, 0)), now, MAIL_TIME_WORDS_ZH)).toBe('25分钟前');
    // Issue 15: one minute is singular ("1 minutes ago" was the trap), in both languages.
    expect(formatMailTime(at(new Date(2026, 10, 22, 15, 28, 30)), now)).toBe('1 minute ago');
    expect(formatMailTime(at(new Date(2026, 10, 22, 15, 28, 30)), now, MAIL_TIME_WORDS_ZH)).toBe('1分钟前');
  });
  it('names today, yesterday and the day before with hh:mm', () => {
    expect(formatMailTime(at(new Date(2026, 10, 22, 9, 7)), now)).toBe('Today 09:07');
    expect(formatMailTime(at(new Date(2026, 10, 21, 23, 59)), now)).toBe('Yesterday 23:59');
    expect(formatMailTime(at(new Date(2026, 10, 20, 0, 1)), now, MAIL_TIME_WORDS_ZH)).toBe('前天 00:01');
  });
  it('shows month-day and time earlier this year, the full date before', () => {
    expect(formatMailTime(at(new Date(2026, 0, 3, 8, 0)), now)).toBe('01-03 08:00');
    expect(formatMailTime(at(new Date(2025, 11, 31, 8, 0)), now)).toBe('2025-12-31');
  });
});

describe('badgeText', () => {
  it('hides at zero and caps at 999', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-3)).toBeNull();
    expect(badgeText(5)).toBe('5');
    expect(badgeText(999)).toBe('999');
    expect(badgeText(1000)).toBe('999+');
  });
});

describe('attachmentKind', () => {
  it('picks the icon by extension', () => {
    expect(attachmentKind('报告.PDF')).toBe('pdf');
    expect(attachmentKind('a.xlsx')).toBe('excel');
    expect(attachmentKind('photo.jpeg')).toBe('image');
    expect(attachmentKind('noext')).toBe('file');
  });
});
