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
  // What has come in since the last hand-over: pg corks its pipeline (Bind, Describe, Execute,
  // Sync) and each message arrives as a chunk of its own. They are kept as they came and joined
  // once, when a reply is due: joined chunk by chunk, a delivery batch's Bind (tens of KB) was
  // copied again for every message behind it, on the thread that runs the database.
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  // How far the messages in `pending` have been read, and the end of the last one a server would reply to.
  private scanned = 0;
  private answerable = 0;
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
    this.accept([chunk], done);
  }

  // A corked pipeline arrives here whole.
  override _writev(chunks: { chunk: Buffer }[], done: (err?: Error | null) => void): void {
    this.accept(chunks.map((c) => c.chunk), done);
  }

  private accept(chunks: Buffer[], done: (err?: Error | null) => void): void {
    for (const c of chunks) {
      this.pending.push(c);
      this.pendingBytes += c.length;
    }
    this.scan();
    if (this.answerable === 0) {
      done();
      return;
    }
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    const batch = all.subarray(0, this.answerable);
    // What follows the last answerable message (a pipeline's start) waits for the rest of it.
    const rest = all.subarray(this.answerable);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    this.scanned -= this.answerable;
    this.answerable = 0;
    // The next write waits for this one, so the backend sees the bytes in order, and a
    // commit's reply is pushed only once PGlite has written it out.
    this.lite.execProtocolRaw(new Uint8Array(batch.buffer, batch.byteOffset, batch.length)).then((reply) => {
      if (reply.length > 0) this.push(Buffer.from(reply.buffer, reply.byteOffset, reply.length));
      done();
    }, (err: unknown) => done(err instanceof Error ? err : new Error(String(err))));
  }

  /**
   * Reads the messages that are complete in `pending`, from where the last scan stopped, and
   * moves `answerable` to the end of the last one after which a server would reply.
   */
  private scan(): void {
    while (true) {
      const headerBytes = this.started ? 5 : 4;
      if (this.pendingBytes - this.scanned < headerBytes) return;
      const head = this.peek(this.scanned, headerBytes);
      // StartupMessage: Int32 length, no type byte (protocol §55.7); then a type byte and an Int32 length.
      const len = this.started ? 1 + head.readInt32BE(1) : head.readInt32BE(0);
      if (this.pendingBytes - this.scanned < len) return;
      this.scanned += len;
      // S Sync, Q Query, H Flush, X Terminate.
      if (!this.started || head[0] === 0x53 || head[0] === 0x51 || head[0] === 0x48 || head[0] === 0x58) this.answerable = this.scanned;
      this.started = true;
    }
  }

  /** `n` bytes of `pending` from `at`. */
  private peek(at: number, n: number): Buffer {
    let i = 0;
    let off = at;
    while (off >= this.pending[i]!.length) off -= this.pending[i++]!.length;
    if (off + n <= this.pending[i]!.length) return this.pending[i]!.subarray(off, off + n);
    // A header split across chunks (a writer that cuts its messages): join what is pending, as the hand-over would.
    this.pending = [Buffer.concat(this.pending, this.pendingBytes)];
    return this.pending[0]!.subarray(at, at + n);
  }

  override _final(done: () => void): void {
    this.push(null);
    done();
  }
}
