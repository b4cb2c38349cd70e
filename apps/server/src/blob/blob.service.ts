import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../db/connect.js';
import type { BlobStore, Spool, StagedBlob } from './blob-store.js';
import * as repo from './blob.repository.js';

/**
 * A received mail this small is kept in its blob row, not in a file (issue 13). A file of its
 * own cost a delivery about 1.4 ms of CPU on the shared 2-core machine, a quarter of all it
 * cost: eleven trips to the thread pool (create, write, fsync, close, mkdir, link, the
 * directory's open, fsync and close, the check after commit, the staging link's unlink),
 * inode creation being erratically dear on its file system. In the row the bytes are durable
 * with the commit that files the mail, which has to happen anyway. 64 KiB holds most mail
 * without attachments; bigger ones, and everything not received (uploads, disk, archives),
 * stay files.
 */
export const ROW_BLOB_MAX = 64 * 1024;

/**
 * Ties the store's files to the database's reference counts, and owns where a blob's bytes
 * live: read blobs through this service (get, read, stream, head, has), never the store, since a blob
 * may be kept in its row.
 */
export class BlobService {
  constructor(private readonly db: Db, readonly store: BlobStore) {}

  /**
   * Stages a received message's bytes: a small one is only hashed and rides along to its
   * row (`data`), a bigger one is written to the store. Either way `release` it afterwards.
   */
  async stage(raw: Buffer): Promise<StagedBlob> {
    if (raw.length > ROW_BLOB_MAX) return this.store.stage(raw);
    return { hash: createHash('sha256').update(raw).digest('hex'), size: raw.length, token: '', data: raw };
  }

  /** Drops the staging link once the referencing transaction has ended, committed or not. */
  async release(staged: StagedBlob): Promise<void> {
    if (!staged.data) await this.store.release(staged);
  }

  // The readers below take the caller's transaction when there is one: on the embedded database
  // a transaction holds the only session, and a read on another handle would wait for it forever.

  /** A blob's bytes, wherever they are kept. */
  async get(hash: string, db: Db = this.db): Promise<Buffer> {
    return (await repo.rowData(db, hash)) ?? this.store.get(hash);
  }

  /** Whether a blob's bytes are kept, in its row or in the store. */
  async has(hash: string, db: Db = this.db): Promise<boolean> {
    return (await repo.hasRowData(db, hash)) || this.store.has(hash);
  }

  /** A staged blob's bytes, before or after its commit. */
  async read(staged: StagedBlob): Promise<Buffer> {
    return staged.data ?? this.get(staged.hash);
  }

  /** A blob's bytes as a stream, optionally a byte range (inclusive, as HTTP's). */
  async stream(hash: string, range?: { start: number; end: number }, db: Db = this.db): Promise<Readable> {
    const data = await repo.rowData(db, hash);
    if (!data) return this.store.stream(hash, range);
    return Readable.from([range ? data.subarray(range.start, range.end + 1) : data]);
  }

  /** Stages `head` followed by a spool's bytes, streamed: neither is held whole. */
  async stageJoined(head: Buffer, body: Spool): Promise<StagedBlob> {
    const writer = await this.store.stageStream();
    try {
      await writer.write(head);
      for await (const chunk of body.read()) await writer.write(chunk as Buffer);
      return await writer.finish();
    } catch (err) {
      await writer.abort();
      throw err;
    }
  }

  /** Inside a transaction: count new references to staged blobs (one statement) and make sure their files exist. */
  async reference(trx: Db, refs: { staged: StagedBlob; n: number }[]): Promise<void> {
    await repo.addRefs(trx, refs.map((r) => ({ hash: r.staged.hash, size: r.staged.size, n: r.n, data: r.staged.data })));
    for (const r of refs) if (!r.staged.data) await this.store.ensure(r.staged);
  }

  /**
   * For references written by a statement of their own (features/message/filing.repository.ts):
   * after its commit, and before anyone is told, the blobs' files must exist. A collector may
   * have removed a file with the same bytes between its staging and the reference (it removes
   * only unreferenced blobs' files, under the row's lock); once the reference is committed no
   * collector will, so a missing file is put back from its staging link, which lives until `release`.
   */
  async ensureReferenced(staged: StagedBlob[]): Promise<void> {
    await Promise.all(staged.filter((s) => !s.data).map((s) => this.store.ensure(s)));
  }

  /** More references to a blob that is already referenced and present (e.g. recipients' copies of a sent mail). */
  async addRefs(trx: Db, hash: string, size: number, n: number): Promise<void> {
    if (n > 0) await repo.addRefs(trx, [{ hash, size, n }]);
  }

  async unreference(trx: Db, counts: Map<string, number>): Promise<void> {
    if (counts.size > 0) await repo.dropRefs(trx, counts);
  }

  /** The first bytes of a blob (e.g. a message's header block), without reading a large one whole. */
  async head(hash: string, bytes = 64 * 1024, db: Db = this.db): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let n = 0;
    for await (const chunk of await this.stream(hash, undefined, db)) {
      chunks.push(chunk as Buffer);
      n += (chunk as Buffer).length;
      if (n >= bytes) break;
    }
    return Buffer.concat(chunks);
  }

  /** Removes unreferenced blobs, each in its own short transaction. Returns how many went. */
  async collect(limit = 500): Promise<number> {
    let removed = 0;
    for (const hash of await repo.unreferenced(this.db, limit)) {
      await this.db.transaction().execute(async (trx) => {
        if (!(await repo.lockIfCollectable(trx, hash))) return;
        // File first, then the row: if the row's delete or the commit fails, what is left is a row at
        // refcount 0 without its file, which nothing reads; a later delivery of the same bytes adds its
        // reference under this row lock and then `reference` puts the file back from its staging link
        // (or, a small received mail, writes its bytes into the row). A row's own bytes go with the row.
        await this.store.delete(hash);
        await repo.deleteRow(trx, hash);
        removed += 1;
      });
    }
    return removed;
  }
}
