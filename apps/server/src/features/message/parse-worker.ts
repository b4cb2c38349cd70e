import { parentPort } from 'node:worker_threads';
import type { BlobLocator } from '../../blob/blob-store.js';
import { openLocated } from '../../blob/blob-locator.js';
import { contentTokens, type TokenSource } from '../search/content-tokens.js';
import { parseMail } from './mail-parse.js';

// Runs mailparser and the sanitiser off the main thread (see parse-pool.ts). A big
// message comes as a locator and is read here, so its bytes never cross the main thread.
// The search indexer's tokenising runs here too, for the same reason.
type Task = { id: number; raw?: Uint8Array; loc?: BlobLocator; size: number; from: string } | { id: number; tokens: TokenSource[] };

parentPort?.on('message', (msg: Task) => {
  if ('tokens' in msg) {
    try {
      parentPort?.postMessage({ id: msg.id, tokens: msg.tokens.map((s) => contentTokens(s).join('\n')) });
    } catch (err) {
      parentPort?.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
    }
    return;
  }
  const input = msg.raw ? Buffer.from(msg.raw.buffer, msg.raw.byteOffset, msg.raw.byteLength) : openLocated(msg.loc!);
  parseMail(input, msg.from, msg.size).then(
    (content) => parentPort?.postMessage({ id: msg.id, content }),
    (err: unknown) => parentPort?.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
