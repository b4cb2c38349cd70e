import { describe, expect, it } from 'vitest';
import { compareVersions, versionStatus } from './version-check';

const latest = (version: string, code: number, minCode = 0) => ({ version, code, minCode, notes: '', url: '' });
const mine = { version: '6.2.6', code: 100 };

describe('version comparison', () => {
  it('compares dotted versions part by part', () => {
    expect(compareVersions('6.2.10', '6.2.9')).toBe(1);
    expect(compareVersions('6.2.6', '6.2.6')).toBe(0);
    expect(compareVersions('6.2', '6.2.0')).toBe(0);
    expect(compareVersions('6.1.9', '6.2')).toBe(-1);
    expect(compareVersions('7', '6.99.99')).toBe(1);
  });

  it('is up to date at the same or an older code', () => {
    expect(versionStatus(mine, latest('6.2.6', 100, 90))).toBe('current');
    expect(versionStatus(mine, latest('6.2.5', 99))).toBe('current');
  });

  it('offers an update at a higher code, or a higher name at the same code', () => {
    expect(versionStatus(mine, latest('6.3.0', 101, 90))).toBe('update');
    expect(versionStatus(mine, latest('6.2.7', 100))).toBe('update');
  });

  it('requires the update when this code is below the minimum', () => {
    expect(versionStatus(mine, latest('7.0.0', 120, 101))).toBe('unsupported');
    expect(versionStatus(mine, latest('6.2.6', 100, 100))).toBe('current');
  });
});
