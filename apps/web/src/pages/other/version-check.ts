import type { Version } from '@mailwing/shared';

export type VersionStatus = 'current' | 'update' | 'unsupported';

/** Compares dotted versions ("6.2.10" > "6.2.9"); missing parts count as 0, non-numeric parts as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/**
 * This build against the server's latest: below minCode it must update; a
 * higher code (or, at equal codes, a higher version name) is an update.
 */
export function versionStatus(mine: { version: string; code: number }, latest: Version): VersionStatus {
  if (mine.code < latest.minCode) return 'unsupported';
  if (latest.code > mine.code) return 'update';
  if (latest.code === mine.code && compareVersions(latest.version, mine.version) > 0) return 'update';
  return 'current';
}
