import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Server as TusServer } from '@tus/server';
import type { DiskNode } from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { detectType } from '../../http/user-content.js';
import type { QuotaService } from '../quota/quota.service.js';
import type { DiskService } from './disk.service.js';
import { checkName, checkSize, refuse } from './disk-rules.js';
import * as repo from './upload.repository.js';
import { DbUploadLocker } from './upload-lock.js';
import { HashingFileStore } from './hashing-file-store.js';

export const TUS_PATH = '/h5/disk/tus';
import type { IncomingMessage } from 'node:http';

// The id our route reserved, handed to tus's naming function through the request it passes on.
const reservedIds = new WeakMap<IncomingMessage, string>();

/** Upload-Metadata (tus 1.0.0 creation extension): comma-separated "key base64value" pairs. */
export function parseMetadata(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

export interface UploadDeps { db: Db; blobs: BlobService; disk: DiskService; quota: QuotaService; dir: string; ttlMs: number; now?: () => Date }

/**
 * Resumable uploads into the disk (tus 1.0.0 through @tus/server). A creation is
 * checked (name, 2G, folder) and its Upload-Length reserved against the quota in
 * one transaction before tus sees it; the finished file is moved into the blob
 * store, its sha256 compared with the one the client declared, and it becomes a
 * disk file in one commit. Unfinished uploads expire after `ttlMs` (sweep).
 */
export class DiskUploadService {
  readonly tus: TusServer;
  private readonly now: () => Date;
  private readonly store: HashingFileStore;

  constructor(private readonly d: UploadDeps) {
    this.now = d.now ?? (() => new Date());
    this.store = new HashingFileStore({ directory: d.dir });
    this.tus = new TusServer({
      path: TUS_PATH,
      datastore: this.store,
      // Locks in the database: with PROCESSES > 1, two processes must not write one upload at once.
      locker: new DbUploadLocker(d.db),
      relativeLocation: true,
      namingFunction: (req) => {
        const raw = (req as unknown as { runtime?: { node?: { req: IncomingMessage } } }).runtime?.node?.req;
        const id = raw ? reservedIds.get(raw) : undefined;
        if (!id) throw new Error('upload id missing');
        return id;
      },
      onUploadFinish: async (_req, upload) => {
        const node = await this.finish(upload.id, upload.size ?? upload.offset);
        return { headers: { 'X-Disk-File-Id': node.id } };
      },
      onResponseError: (_req, err) => {
        if (err instanceof ClientRefusal) return { status_code: err.status, body: err.body };
        return undefined;
      },
    });
  }

  async init(): Promise<void> {
    await fs.mkdir(this.d.dir, { recursive: true });
  }

  /** Checks a creation request and reserves its length; returns the id tus will use. */
  async reserve(userId: number, length: string | undefined, metadata: string | undefined): Promise<string> {
    const size = Number(length);
    if (length === undefined || !/^\d{1,16}$/.test(length)) throw refuse('file', 'tooLarge');
    checkSize(size);
    const meta = parseMetadata(metadata);
    const name = checkName(meta.filename ?? meta.name ?? '', 'file');
    const sha256 = (meta.sha256 ?? '').toLowerCase();
    if (sha256 !== '' && !/^[0-9a-f]{64}$/.test(sha256)) throw refuse('file', 'checksum');
    const id = randomBytes(16).toString('hex');
    const now = this.now();
    await this.d.db.transaction().execute(async (trx) => {
      const parentId = await this.d.disk.folder(userId, meta.parent && /^\d{1,15}$/.test(meta.parent) ? meta.parent : undefined, trx);
      await this.d.quota.reserve(trx, userId, size);
      await repo.insertUpload(trx, { id, user_id: userId, parent_id: parentId, name, length: size, sha256, created_at: now, expires_at: new Date(now.getTime() + this.d.ttlMs) });
    });
    return id;
  }

  /** Marks a creation request with the id `reserve` returned. */
  assign(raw: IncomingMessage, id: string): void {
    reservedIds.set(raw, id);
  }

  async owns(userId: number, id: string): Promise<boolean> {
    return /^[0-9a-f]{32}$/.test(id) && (await repo.findUpload(this.d.db, userId, id)) !== undefined;
  }

  /** Drops a reservation tus never created, or one the client terminated. */
  async drop(id: string): Promise<void> {
    await repo.deleteUpload(this.d.db, id);
    await this.removeFiles(id);
  }

  private async finish(id: string, length: number): Promise<DiskNode> {
    const file = path.join(this.d.dir, id);
    const staged = await this.d.blobs.store.stageFile(file, this.store.takeHash(id, length));
    try {
      return await this.d.db.transaction().execute(async (trx) => {
        const up = await repo.lockUpload(trx, id);
        if (!up) throw new ClientRefusal(404, 'upload expired');
        await repo.deleteUpload(trx, id);
        if (staged.size !== Number(up.length)) throw new ClientRefusal(460, envelopeBody('checksum'));
        if (up.sha256 !== '' && up.sha256 !== staged.hash) throw new ClientRefusal(460, envelopeBody('checksum'));
        await this.d.blobs.reference(trx, [{ staged, n: 1 }]);
        const contentType = await detectType(await this.d.blobs.head(staged.hash, 8192, trx), up.name);
        return this.d.disk.addFile(trx, Number(up.user_id), up.parent_id === null ? null : Number(up.parent_id), up.name, { size: staged.size, blobHash: staged.hash, contentType });
      }).catch(async (err: unknown) => {
        if (err instanceof ClientRefusal && err.status === 460) {
          // A damaged upload is over: drop it, and hand its bytes (already linked under their hash)
          // to the collector as an unreferenced blob, so they go under its lock like any other.
          await this.d.db.transaction().execute(async (trx) => {
            await repo.deleteUpload(trx, id);
            await this.d.blobs.reference(trx, [{ staged, n: 0 }]);
          });
          await this.d.blobs.collect();
        }
        throw err;
      });
    } finally {
      await this.d.blobs.store.release(staged);
      await fs.rm(`${file}.json`, { force: true });
    }
  }

  /** Removes uploads past their expiry (claimed row by row, so several nodes can sweep). */
  async sweep(now: Date = this.now(), limit = 100): Promise<number> {
    let n = 0;
    for (;;) {
      const ids = await this.d.db.transaction().execute(async (trx) => {
        const claimed = await repo.claimExpired(trx, now, limit);
        for (const id of claimed) await repo.deleteUpload(trx, id);
        return claimed;
      });
      for (const id of ids) await this.removeFiles(id);
      n += ids.length;
      if (ids.length < limit) return n;
    }
  }

  private async removeFiles(id: string): Promise<void> {
    this.store.forget(id);
    await fs.rm(path.join(this.d.dir, id), { force: true });
    await fs.rm(path.join(this.d.dir, `${id}.json`), { force: true });
  }
}

/** A refusal tus passes to the client with its own status (tus needs non-2xx to see a failure). */
export class ClientRefusal extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(body);
  }
}

export function envelopeBody(key: 'checksum' | 'tooLarge' | 'quota' | 'badName' | 'emptyName'): string {
  const e = refuse('file', key);
  return JSON.stringify({ code: e.code, error: e.detail, reason: e.reason, reasons: e.extra?.reasons });
}
