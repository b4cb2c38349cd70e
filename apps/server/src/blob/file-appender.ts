import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';

// Chunks off a socket are often a few KB; one write per chunk would cost a syscall and a
// thread-pool hop each. Gathering them bounds memory per writer to about this much.
const BATCH_BYTES = 128 * 1024;

/**
 * Appends to a new temp file in batches. The file exists from `create` on, so an
 * abort or a sweep always has a name to remove; writes are strictly sequential.
 */
export class FileAppender {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pos = 0;
  private closed = false;
  // Each flush waits for the one before, so a caller that does not await still gets its bytes in order.
  private chain: Promise<void> = Promise.resolve();

  private constructor(private readonly fh: FileHandle, readonly file: string) {}

  static async create(file: string): Promise<FileAppender> {
    return new FileAppender(await fs.open(file, 'wx'), file);
  }

  get bytes(): number {
    return this.pos + this.pendingBytes;
  }

  async write(chunk: Buffer): Promise<void> {
    if (this.closed) throw new Error('write after close');
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= BATCH_BYTES) await this.flush();
  }

  flush(): Promise<void> {
    const next = this.chain.then(() => this.flushNow());
    // A failed write fails every later one too: the file has a hole.
    this.chain = next;
    return next;
  }

  private async flushNow(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const bufs = this.pending;
    const total = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    let written = (await this.fh.writev(bufs, this.pos)).bytesWritten;
    // A short write on a regular file is rare (a signal, a nearly full disk); finish it plainly.
    if (written < total) {
      const rest = Buffer.concat(bufs).subarray(written);
      for (let at = 0; at < rest.length;) {
        const { bytesWritten } = await this.fh.write(rest, at, rest.length - at, this.pos + written);
        if (bytesWritten === 0) throw new Error('short write');
        at += bytesWritten;
        written += bytesWritten;
      }
    }
    this.pos += written;
  }

  /** Flushes, optionally fsyncs, and closes the handle. */
  async close(sync: boolean): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
      if (sync) await this.fh.sync();
    } finally {
      this.closed = true;
      await this.fh.close();
    }
  }

  /** Closes without flushing and removes the file. */
  async remove(): Promise<void> {
    this.pending = [];
    this.pendingBytes = 0;
    if (!this.closed) {
      this.closed = true;
      await this.fh.close().catch(() => undefined);
    }
    await fs.rm(this.file, { force: true });
  }
}
