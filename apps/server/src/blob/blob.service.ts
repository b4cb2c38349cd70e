import type { Db } from '../db/connect.js';
import type { BlobStore, Spool, StagedBlob } from './blob-store.js';
import * as repo from './blob.repository.js';

/** Ties the store's files to the database's reference counts. */
export class BlobService {
  constructor(private readonly db: Db, readonly store: BlobStore) {}

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
    await repo.addRefs(trx, refs.map((r) => ({ hash: r.staged.hash, size: r.staged.size, n: r.n })));
    for (const r of refs) await this.store.ensure(r.staged);
  }

  /**
   * For references written by a statement of their own (features/message/filing.repository.ts):
   * after its commit, and before anyone is told, the blobs' files must exist. A collector may
   * have removed a file with the same bytes between its staging and the reference (it removes
   * only unreferenced blobs' files, under the row's lock); once the reference is committed no
   * collector will, so a missing file is put back from its staging link, which lives until `release`.
   */
  async ensureReferenced(staged: StagedBlob[]): Promise<void> {
    await Promise.all(staged.map((s) => this.store.ensure(s)));
  }

  /** More references to a blob that is already referenced and present (e.g. recipients' copies of a sent mail). */
  async addRefs(trx: Db, hash: string, size: number, n: number): Promise<void> {
    if (n > 0) await repo.addRefs(trx, [{ hash, size, n }]);
  }

  async unreference(trx: Db, counts: Map<string, number>): Promise<void> {
    if (counts.size > 0) await repo.dropRefs(trx, counts);
  }

  /** The first bytes of a blob (e.g. a message's header block), without reading a large one whole. */
  async head(hash: string, bytes = 64 * 1024): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let n = 0;
    for await (const chunk of this.store.stream(hash)) {
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
        // reference under this row lock and then `reference` puts the file back from its staging link.
        await this.store.delete(hash);
        await repo.deleteRow(trx, hash);
        removed += 1;
      });
    }
    return removed;
  }
}
