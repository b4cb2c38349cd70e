import { expect, it } from 'vitest';
import { firstScreenJs } from '../first-screen';
import { DIST_DIR } from '../env';

// Brief: the first screen (entry, login and the four tabs) loads at most
// 170 KB of gzipped JavaScript; every other page is a lazy chunk.
it('first-screen JavaScript stays within 170 KB gzip', () => {
  const { gzipBytes, files } = firstScreenJs(DIST_DIR);
  console.log(`first-screen JS: ${(gzipBytes / 1000).toFixed(1)} kB gzip in ${Object.keys(files).length} files`);
  expect(gzipBytes).toBeLessThanOrEqual(170_000);
  // Issue 15: in one wave of requests. A phone's browser opens six connections to a host
  // over HTTP/1.1, and each further wave costs a round trip (vite.config.ts: first-screen).
  expect(Object.keys(files).length).toBeLessThanOrEqual(4);
  // The read and compose pages are not part of it, nor the mail editor.
  for (const page of ['read-mail', 'write', 'rich-editor', 'other-attach-upload']) {
    expect(Object.keys(files).some((f) => f.includes(page))).toBe(false);
  }
});
