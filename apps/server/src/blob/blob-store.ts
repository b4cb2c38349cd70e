import type { Readable } from 'node:stream';

/** A blob written durably under its hash, with a private hard link that keeps it alive until released. */
export interface StagedBlob {
  hash: string;
  size: number;
  /** Internal to the backend. */
  readonly token: string;
  /**
   * The bytes of a small blob kept in its database row rather than in the store
   * (BlobService.stage): no file and no staging link, and durable with the commit that
   * references it. Absent for every blob the store holds.
   */
  readonly data?: Buffer;
}

/**
 * A blob being written piece by piece and hashed on the way: `finish` makes it
 * durable and returns it staged, as `stage` does; `abort` leaves nothing behind.
 * `write` resolves once the backend can take more, so a slow disk slows the writer.
 */
export interface BlobWriter {
  write(chunk: Buffer): Promise<void>;
  finish(): Promise<StagedBlob>;
  abort(): Promise<void>;
}

/**
 * Scratch space for bytes that may become a blob later (an SMTP message while it
 * arrives, before the headers that go on top of it are known): not durable, not
 * hashed, readable again as often as needed until `discard`.
 */
export interface Spool {
  readonly bytes: number;
  write(chunk: Buffer): Promise<void>;
  /** No more writes; the bytes can be read from now on. */
  end(): Promise<void>;
  /** From the start, or only the first `bytes`. */
  read(bytes?: number): Readable;
  discard(): Promise<void>;
}

/**
 * Where another thread can read a staged blob itself, so its bytes need not pass
 * through the main thread (the mail parser's workers). Opaque outside src/blob/:
 * only `openLocated` (blob-locator.ts) reads it.
 */
export interface BlobLocator {
  readonly backend: string;
  readonly ref: string;
}

/**
 * Content-addressed blob storage (DESIGN.md). `stage` is put: it returns the
 * hash once the bytes are durable. The reference counts live in the database
 * (blob.repository.ts); nothing outside src/blob/ knows which backend is used.
 */
export interface BlobStore {
  stage(data: Buffer): Promise<StagedBlob>;
  /** Like `stage`, for content too big to hold in memory. */
  stageStream(): Promise<BlobWriter>;
  /**
   * Like `stage`, taking over a finished local file (a resumable upload's): the file is
   * hashed once and moved, not copied, where the backend allows. It is gone afterwards.
   */
  /**
   * `known`: the sha256 and size of the file's bytes, hashed by the caller as it wrote them
   * (a resumable upload); then the file is not read again, only made durable.
   */
  stageFile(file: string, known?: { hash: string; size: number }): Promise<StagedBlob>;
  spool(): Promise<Spool>;
  /** Null when the backend cannot be read from another thread: then read `stream` or `get`. */
  locate(staged: StagedBlob): BlobLocator | null;
  /**
   * Removes staging and spool leftovers older than `olderThanMs` (a crash's, or a
   * writer that never finished nor aborted). Several processes may share the store,
   * so the age must exceed the longest time a live writer can leave its file untouched.
   */
  sweep(olderThanMs: number, now?: number): Promise<number>;
  /** Called inside the transaction that references the blob, after its row is locked: re-creates the blob if a collector removed it meanwhile. */
  ensure(staged: StagedBlob): Promise<void>;
  /** Drops the staging link once the referencing transaction has ended, committed or not. */
  release(staged: StagedBlob): Promise<void>;
  get(hash: string): Promise<Buffer>;
  /** The bytes, or only `start`..`end` (inclusive, as HTTP ranges count). */
  stream(hash: string, range?: { start: number; end: number }): Readable;
  delete(hash: string): Promise<void>;
  has(hash: string): Promise<boolean>;
}
