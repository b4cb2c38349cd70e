import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/server';

/**
 * @tus/server's file store, hashing (sha256) each upload's bytes as they are written, so the
 * finished file need not be read again to learn its hash (a second pass over up to 2 GB that
 * made most of the wait after the last PATCH). The running hash is kept only while it covers
 * exactly the bytes in the file: a PATCH that fails, starts at another offset (the file was
 * written by another process of the cluster, or this one restarted) or ends short drops it,
 * and the blob store then hashes the file itself. So a hash from here is always the file's.
 * The file is written as FileStore writes it, with a larger buffer: a request's many small
 * chunks go down in few writev calls instead of one write each.
 */
const WRITE_BUFFER = 4 * 1024 * 1024;

export class HashingFileStore extends FileStore {
  private readonly running = new Map<string, { hash: Hash; at: number }>();

  constructor(opts: { directory: string }, private readonly maxRunning = 1000) {
    super(opts);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let state = offset === 0 ? { hash: createHash('sha256'), at: 0 } : this.running.get(id);
    this.running.delete(id);
    if (state && state.at !== offset) state = undefined;
    let hashed = 0;
    const tee = new Transform({
      transform(chunk: Buffer, _enc, done) {
        state?.hash.update(chunk);
        hashed += chunk.length;
        done(null, chunk);
      },
    });
    const file = createWriteStream(path.join(this.directory, id), { flags: 'r+', start: offset, highWaterMark: WRITE_BUFFER });
    try {
      await pipeline(readable, tee, file);
    } catch {
      throw ERRORS.FILE_WRITE_ERROR;
    }
    const end = offset + hashed;
    if (state) {
      state.at = end;
      this.running.set(id, state);
      if (this.running.size > this.maxRunning) this.running.delete(this.running.keys().next().value!);
    }
    return end;
  }

  /** The sha256 of an upload's bytes if this process hashed all `length` of them; then forgets it. */
  takeHash(id: string, length: number): { hash: string; size: number } | undefined {
    const state = this.running.get(id);
    this.running.delete(id);
    return state && state.at === length ? { hash: state.hash.digest('hex'), size: length } : undefined;
  }

  forget(id: string): void {
    this.running.delete(id);
  }
}
