import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore, StagedBlob } from './blob-store.js';

const HASH_RE = /^[0-9a-f]{64}$/;

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
    // Staging links left by a crash belong to no transaction any more.
    for (const name of await fs.readdir(this.tmpDir)) await fs.rm(path.join(this.tmpDir, name), { force: true });
  }

  pathOf(hash: string): string {
    if (!HASH_RE.test(hash)) throw new Error('bad blob hash');
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async stage(data: Buffer): Promise<StagedBlob> {
    const hash = createHash('sha256').update(data).digest('hex');
    const tmp = path.join(this.tmpDir, randomUUID());
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

  async ensure(staged: StagedBlob): Promise<void> {
    if (!(await this.has(staged.hash))) await this.linkFinal(staged);
  }

  async release(staged: StagedBlob): Promise<void> {
    await fs.rm(staged.token, { force: true });
  }

  async get(hash: string): Promise<Buffer> {
    return fs.readFile(this.pathOf(hash));
  }

  stream(hash: string): Readable {
    return createReadStream(this.pathOf(hash));
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
