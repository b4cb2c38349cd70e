import type { Spool } from '../blob/blob-store.js';

/** What DATA left: the message whole in memory, or spooled (then the caller must discard the spool). */
export type ReceivedData = { chunks: Buffer[]; spool?: undefined } | { spool: Spool; chunks?: undefined };

/**
 * Collects the DATA of one message, up to a byte limit. Most mail is a few dozen KB
 * and stays in memory; past `memoryBytes` the message goes to a spool as it arrives,
 * so memory per connection stays small whatever the message's size (issue 13).
 *
 * Once the message passes the limit nothing more is kept and what was kept is let go:
 * the client is still sending and smtp-server can only answer 552 after the final dot
 * (RFC 5321 §4.1.1.4), so the rest is read and dropped (issue 12, finding 2). A spool
 * that fails to write is dropped the same way and the message answered 451.
 */
export class DataSink {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private spool: Spool | null = null;
  private failure: unknown = null;
  private dropped = false;

  constructor(private readonly maxBytes: number, private readonly memoryBytes: number, private readonly openSpool: () => Promise<Spool>) {}

  /** Null when the chunk is kept already; otherwise wait before giving the next (backpressure onto the client). */
  push(chunk: Buffer): Promise<void> | null {
    this.bytes += chunk.length;
    if (this.dropped) return null;
    if (this.bytes > this.maxBytes) return this.drop();
    if (!this.spool && this.bytes <= this.memoryBytes) {
      this.chunks.push(chunk);
      return null;
    }
    return this.toSpool(chunk).catch((err: unknown) => {
      this.failure = err;
      return this.drop();
    });
  }

  get overflowed(): boolean {
    return this.bytes > this.maxBytes;
  }

  /** Why the spool could not be written, if it could not. */
  get failed(): unknown {
    return this.failure;
  }

  /** The message as received, once DATA has ended and neither overflowed nor failed. */
  async take(): Promise<ReceivedData> {
    if (this.dropped) throw new Error('DATA was dropped');
    const spool = this.spool;
    if (!spool) {
      const chunks = this.chunks;
      this.chunks = [];
      return { chunks };
    }
    this.spool = null;
    try {
      await spool.end();
    } catch (err) {
      await spool.discard().catch(() => undefined);
      throw err;
    }
    return { spool };
  }

  /** The client went away, or the message is refused: keeps nothing. */
  abort(): Promise<void> {
    return this.drop();
  }

  private async toSpool(chunk: Buffer): Promise<void> {
    let spool = this.spool;
    if (!spool) {
      spool = this.spool = await this.openSpool();
      // The client went away meanwhile: the spool is not wanted.
      if (this.dropped) return this.drop();
      const kept = this.chunks;
      this.chunks = [];
      for (const c of kept) await spool.write(c);
    }
    await spool.write(chunk);
  }

  private async drop(): Promise<void> {
    this.dropped = true;
    this.chunks = [];
    const spool = this.spool;
    this.spool = null;
    if (spool) await spool.discard().catch(() => undefined);
  }
}
