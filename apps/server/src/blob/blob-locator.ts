import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { BlobLocator } from './blob-store.js';

export const FILE_LOCATOR = 'file';

/**
 * Reads a located blob in whatever thread holds the locator (the parse workers
 * import this, not the store). Kept apart from the stores so a worker loads no
 * database or store code.
 */
export function openLocated(loc: BlobLocator): Readable {
  if (loc.backend === FILE_LOCATOR) return createReadStream(loc.ref, { highWaterMark: 256 * 1024 });
  throw new Error(`no reader for blob backend ${loc.backend}`);
}
