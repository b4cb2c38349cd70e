import type { Readable } from 'node:stream';

/** A blob written durably under its hash, with a private hard link that keeps it alive until released. */
export interface StagedBlob {
  hash: string;
  size: number;
  /** Internal to the backend. */
  readonly token: string;
}

/**
 * Content-addressed blob storage (DESIGN.md). `stage` is put: it returns the
 * hash once the bytes are durable. The reference counts live in the database
 * (blob.repository.ts); nothing outside src/blob/ knows which backend is used.
 */
export interface BlobStore {
  stage(data: Buffer): Promise<StagedBlob>;
  /** Called inside the transaction that references the blob, after its row is locked: re-creates the blob if a collector removed it meanwhile. */
  ensure(staged: StagedBlob): Promise<void>;
  /** Drops the staging link once the referencing transaction has ended, committed or not. */
  release(staged: StagedBlob): Promise<void>;
  get(hash: string): Promise<Buffer>;
  stream(hash: string): Readable;
  delete(hash: string): Promise<void>;
  has(hash: string): Promise<boolean>;
}
