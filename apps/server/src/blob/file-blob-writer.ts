import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { BlobWriter, Spool, StagedBlob } from './blob-store.js';
import type { FileAppender } from './file-appender.js';

/** FileBlobStore's streaming put: the temp file is hashed as it is written, then fsynced and linked like `stage`. */
export class FileBlobWriter implements BlobWriter {
  private readonly hash = createHash('sha256');
  private settled = false;

  constructor(private readonly out: FileAppender, private readonly linkFinal: (staged: StagedBlob) => Promise<void>) {}

  async write(chunk: Buffer): Promise<void> {
    this.hash.update(chunk);
    await this.out.write(chunk);
  }

  async finish(): Promise<StagedBlob> {
    if (this.settled) throw new Error('blob writer already settled');
    this.settled = true;
    try {
      await this.out.close(true);
      const staged = { hash: this.hash.digest('hex'), size: this.out.bytes, token: this.out.file };
      await this.linkFinal(staged);
      return staged;
    } catch (err) {
      await this.out.remove();
      throw err;
    }
  }

  async abort(): Promise<void> {
    this.settled = true;
    await this.out.remove();
  }
}

/** FileBlobStore's spool: a temp file beside the staging ones, never fsynced (nothing was promised about it yet). */
export class FileSpool implements Spool {
  private ended = false;

  constructor(private readonly out: FileAppender) {}

  get bytes(): number {
    return this.out.bytes;
  }

  write(chunk: Buffer): Promise<void> {
    return this.out.write(chunk);
  }

  async end(): Promise<void> {
    await this.out.close(false);
    this.ended = true;
  }

  read(bytes?: number): Readable {
    if (!this.ended) throw new Error('spool read before end');
    const size = this.out.bytes;
    if (size === 0 || bytes === 0) return Readable.from([]);
    return createReadStream(this.out.file, { highWaterMark: 256 * 1024, ...(bytes !== undefined && bytes < size ? { end: bytes - 1 } : {}) });
  }

  discard(): Promise<void> {
    return this.out.remove();
  }
}
