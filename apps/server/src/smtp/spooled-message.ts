import { Readable } from 'node:stream';
import type { Spool } from '../blob/blob-store.js';
import type { MessageSource } from './inbound-auth.js';

/** Our trace headers followed by a spooled DATA, read as one message without holding it. */
export function spooledMessage(trace: Buffer, spool: Spool): MessageSource {
  return {
    stream: () => Readable.from(joined(trace, spool)),
    async head(bytes) {
      const chunks = [trace];
      if (bytes > trace.length) for await (const c of spool.read(bytes - trace.length)) chunks.push(c as Buffer);
      return Buffer.concat(chunks).subarray(0, bytes);
    },
  };
}

async function* joined(trace: Buffer, spool: Spool): AsyncGenerator<Buffer> {
  yield trace;
  for await (const c of spool.read()) yield c as Buffer;
}
