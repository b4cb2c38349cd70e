import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobLocator, BlobStore, BlobWriter, Spool, StagedBlob } from './blob-store.js';
import { FileAppender } from './file-appender.js';
import { FILE_LOCATOR } from './blob-locator.js';
import { FileBlobWriter, FileSpool } from './file-blob-writer.js';

const HASH_RE = /^[0-9a-f]{64}$/;

/**
 * How old a temp file must be before a sweep takes it for a crash's leftover. Several
 * processes may share the store, so a sweep (and a start) must not remove another's
 * live file: one being written is touched by every write (a client idle for
 * SMTP_SOCKET_TIMEOUT_MS is cut off), and once written it lives only through sender
 * authentication, parsing and one commit. An hour is far past all of that.
 */
export const STALE_TEMP_MS = 60 * 60_000;

/**
 * Files under `root/ab/cd/<sha256>`. A put writes a temp file, fsyncs it, hard-links
 * it to its final name and fsyncs that directory, so a crash leaves either no
 * file or a whole one. The temp link stays until `release`, so `ensure` can
 * restore the final name if a garbage collector unlinked it in between.
 */
export class FileBlobStore implements BlobStore {
  private readonly tmpDir: string;
  private readonly knownDirs = new Set<string>();

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, 'tmp');
  }

  async init(): Promise<void> {
    await fs.mkdir(this.tmpDir, { recursive: true });
    // Staging links and spools left by a crash belong to no transaction any more.
    await this.sweep(STALE_TEMP_MS);
  }

  pathOf(hash: string): string {
    if (!HASH_RE.test(hash)) throw new Error('bad blob hash');
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async stage(data: Buffer): Promise<StagedBlob> {
    const hash = createHash('sha256').update(data).digest('hex');
    const tmp = this.tempName();
    const fh = await fs.open(tmp, 'wx');
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    const staged = { hash, size: data.length, token: tmp };
    await this.linkFinal(staged);
    return staged;
  }

  async stageStream(): Promise<BlobWriter> {
    return new FileBlobWriter(await FileAppender.create(this.tempName()), (staged) => this.linkFinal(staged));
  }

  async stageFile(file: string, known?: { hash: string; size: number }): Promise<StagedBlob> {
    const tmp = this.tempName();
    try {
      await fs.rename(file, tmp);
    } catch (err) {
      // Another file system (DATA_DIR split over mounts): copy, then drop the original.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await fs.copyFile(file, tmp);
      await fs.rm(file, { force: true });
    }
    try {
      let digest = known?.hash;
      let size = known?.size ?? 0;
      const fh = await fs.open(tmp, 'r+');
      try {
        // A known hash is only for these bytes: a file of another length is hashed again.
        if (digest !== undefined && (await fh.stat()).size !== size) digest = undefined;
        if (digest === undefined) {
          const hash = createHash('sha256');
          size = 0;
          for await (const chunk of createReadStream(tmp, { highWaterMark: 1024 * 1024 })) {
            hash.update(chunk as Buffer);
            size += (chunk as Buffer).length;
          }
          digest = hash.digest('hex');
        }
        await fh.sync();
      } finally {
        await fh.close();
      }
      const staged = { hash: digest, size, token: tmp };
      await this.linkFinal(staged);
      return staged;
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }

  async spool(): Promise<Spool> {
    return new FileSpool(await FileAppender.create(this.tempName()));
  }

  /** The staging link: it lives until `release`, so a reader holding the locator meanwhile reads whole bytes. */
  locate(staged: StagedBlob): BlobLocator {
    return { backend: FILE_LOCATOR, ref: staged.token };
  }

  async sweep(olderThanMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await fs.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      const st = await fs.stat(file).catch(() => null);
      if (!st || now - st.mtimeMs < olderThanMs) continue;
      await fs.rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }

  private tempName(): string {
    return path.join(this.tmpDir, randomUUID());
  }

  async ensure(staged: StagedBlob): Promise<void> {
    // Straight to the link: an existing final name answers EEXIST there, so asking first
    // (an access) was one more trip to the thread pool on every mail received.
    await this.linkFinal(staged);
  }

  async release(staged: StagedBlob): Promise<void> {
    // unlink, not rm: rm is an lstat and an unlink, two trips to the thread pool on every mail received.
    await fs.unlink(staged.token).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  async get(hash: string): Promise<Buffer> {
    return fs.readFile(this.pathOf(hash));
  }

  stream(hash: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(hash), { highWaterMark: 256 * 1024, ...(range ?? {}) });
  }

  async delete(hash: string): Promise<void> {
    await fs.rm(this.pathOf(hash), { force: true });
  }

  async has(hash: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(hash));
      return true;
    } catch {
      return false;
    }
  }

  private async linkFinal(staged: StagedBlob): Promise<void> {
    const final = this.pathOf(staged.hash);
    const dir = path.dirname(final);
    if (!this.knownDirs.has(dir)) {
      await fs.mkdir(dir, { recursive: true });
      this.knownDirs.add(dir);
    }
    try {
      await fs.link(staged.token, final);
    } catch (err) {
      // Same content already stored: identical bytes, nothing to do.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return;
    }
    // The new name is durable only once its directory is synced (rename/link semantics, POSIX).
    const dh = await fs.open(dir, 'r');
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  }
}
