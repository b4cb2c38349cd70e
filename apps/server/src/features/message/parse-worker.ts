import { parentPort } from 'node:worker_threads';
import { parseMail } from './mail-parse.js';

// Runs mailparser and the sanitiser off the main thread (see parse-pool.ts).
parentPort?.on('message', (msg: { id: number; raw: Uint8Array; from: string }) => {
  parseMail(Buffer.from(msg.raw.buffer, msg.raw.byteOffset, msg.raw.byteLength), msg.from).then(
    (content) => parentPort?.postMessage({ id: msg.id, content }),
    (err: unknown) => parentPort?.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
