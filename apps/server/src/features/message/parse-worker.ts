import { parentPort } from 'node:worker_threads';
import type { BlobLocator } from '../../blob/blob-store.js';
import { openLocated } from '../../blob/blob-locator.js';
import { parseMail } from './mail-parse.js';

// Runs mailparser and the sanitiser off the main thread (see parse-pool.ts). A big
// message comes as a locator and is read here, so its bytes never cross the main thread.
parentPort?.on('message', (msg: { id: number; raw?: Uint8Array; loc?: BlobLocator; size: number; from: string }) => {
  const input = msg.raw ? Buffer.from(msg.raw.buffer, msg.raw.byteOffset, msg.raw.byteLength) : openLocated(msg.loc!);
  parseMail(input, msg.from, msg.size).then(
    (content) => parentPort?.postMessage({ id: msg.id, content }),
    (err: unknown) => parentPort?.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
