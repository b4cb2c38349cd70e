import { Duplex } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The socket a `pg` Client talks through, with PGlite behind it instead of a server:
 * PGlite's native interface is the PostgreSQL wire protocol, so `pg` runs unchanged and
 * parses and serialises values exactly as it does against PostgreSQL.
 *
 * Bytes are handed to the backend only up to a point where a real server would answer
 * (Sync, a simple Query, Flush, Terminate, or the startup packet): PGlite runs whatever
 * it is given to completion and then ends its reply with ReadyForQuery, so a Parse
 * without its Sync must wait for the rest of its pipeline.
 */
export class PGliteStream extends Duplex {
  private pending: Buffer = Buffer.alloc(0);
  private started = false;

  constructor(private readonly lite: PGlite) {
    super();
  }

  // The parts of net.Socket that pg's Connection calls.
  connect(): this {
    process.nextTick(() => this.emit('connect'));
    return this;
  }
  setNoDelay(): this { return this; }
  setKeepAlive(): this { return this; }
  ref(): this { return this; }
  unref(): this { return this; }

  override _read(): void {}

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const n = this.answerablePrefix();
    if (n === 0) {
      done();
      return;
    }
    const batch = this.pending.subarray(0, n);
    this.pending = Buffer.from(this.pending.subarray(n));
    // The next write waits for this one, so the backend sees the bytes in order, and a
    // commit's reply is pushed only once PGlite has written it out.
    this.lite.execProtocolRaw(new Uint8Array(batch.buffer, batch.byteOffset, batch.length)).then((reply) => {
      if (reply.length > 0) this.push(Buffer.from(reply.buffer, reply.byteOffset, reply.length));
      done();
    }, (err: unknown) => done(err instanceof Error ? err : new Error(String(err))));
  }

  override _final(done: () => void): void {
    this.push(null);
    done();
  }

  /** Bytes up to the end of the last complete message after which a server would reply. */
  private answerablePrefix(): number {
    const b = this.pending;
    let at = 0;
    let upTo = 0;
    while (true) {
      if (!this.started) {
        // StartupMessage: Int32 length, no type byte (protocol §55.7).
        if (b.length - at < 4) break;
        const len = b.readInt32BE(at);
        if (b.length - at < len) break;
        at += len;
        upTo = at;
        this.started = true;
        continue;
      }
      if (b.length - at < 5) break;
      const type = b[at]!;
      const len = 1 + b.readInt32BE(at + 1);
      if (b.length - at < len) break;
      at += len;
      // S Sync, Q Query, H Flush, X Terminate.
      if (type === 0x53 || type === 0x51 || type === 0x48 || type === 0x58) upTo = at;
    }
    return upTo;
  }
}
