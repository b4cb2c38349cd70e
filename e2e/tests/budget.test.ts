import { expect, it } from 'vitest';
import { firstScreenJs } from '../first-screen';
import { DIST_DIR } from '../env';

// Brief: the first screen (entry, login and the four tabs) loads at most
// 170 KB of gzipped JavaScript; every other page is a lazy chunk.
it('first-screen JavaScript stays within 170 KB gzip', () => {
  const { gzipBytes, files } = firstScreenJs(DIST_DIR);
  console.log(`first-screen JS: ${(gzipBytes / 1000).toFixed(1)} kB gzip in ${Object.keys(files).length} files`);
  expect(gzipBytes).toBeLessThanOrEqual(170_000);
  // The read page is not part of it.
  expect(Object.keys(files).some((f) => f.includes('read-mail'))).toBe(false);
});
