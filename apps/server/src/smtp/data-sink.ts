/**
 * Collects the DATA of one message, up to a byte limit. Once the message passes the
 * limit nothing more is kept and what was kept is let go: the client is still sending
 * and smtp-server can only answer 552 after the final dot (RFC 5321 §4.1.1.4), so the
 * rest is read and dropped. Memory per connection stays at most the limit, however big
 * the message (issue 12, finding 2).
 */
export class DataSink {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      if (this.chunks.length > 0) this.chunks = [];
      return;
    }
    this.chunks.push(chunk);
  }

  get overflowed(): boolean {
    return this.bytes > this.maxBytes;
  }

  /** The message as received; empty once it overflowed. */
  take(): Buffer[] {
    const out = this.chunks;
    this.chunks = [];
    return out;
  }
}
