import { randomBytes } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { Db } from '../../db/connect.js';
import * as repo from './upload.repository.js';

export interface UploadLockOptions {
  /** How long a lock holds without renewal: a process that died frees its uploads after this. */
  leaseMs?: number;
  /** How long a request waits for a lock before tus answers it with ERR_LOCK_TIMEOUT. */
  acquireTimeoutMs?: number;
  pollMs?: number;
}

/**
 * tus upload locks in the database, so that with PROCESSES > 1 (cluster mode) two
 * processes never write one upload at once (@tus/server's MemoryLocker only sees its
 * own process). A lock is a row with a lease, renewed while held. Inside one process a
 * newer request still asks the older one to let go (tus's requestRelease: a client that
 * resumed after a network drop), as MemoryLocker does; across processes it waits for the
 * other to finish or its lease to run out.
 */
export class DbUploadLocker implements Locker {
  private readonly held = new Map<string, RequestRelease>();
  readonly leaseMs: number;
  readonly acquireTimeoutMs: number;
  readonly pollMs: number;

  constructor(private readonly db: Db, opts: UploadLockOptions = {}) {
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.acquireTimeoutMs = opts.acquireTimeoutMs ?? 20_000;
    this.pollMs = opts.pollMs ?? 100;
  }

  newLock(id: string): Lock {
    const holder = `${process.pid}:${randomBytes(6).toString('hex')}`;
    let renew: NodeJS.Timeout | undefined;
    return {
      lock: async (signal: AbortSignal, requestRelease: RequestRelease) => {
        const deadline = Date.now() + this.acquireTimeoutMs;
        for (;;) {
          if (await repo.takeLock(this.db, id, holder, this.leaseMs)) break;
          if (signal.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
          await this.held.get(id)?.();
          await new Promise((r) => setTimeout(r, this.pollMs));
        }
        this.held.set(id, requestRelease);
        renew = setInterval(() => { repo.renewLock(this.db, id, holder, this.leaseMs).catch(() => undefined); }, Math.floor(this.leaseMs / 3));
        renew.unref();
      },
      unlock: async () => {
        clearInterval(renew);
        this.held.delete(id);
        await repo.dropLock(this.db, id, holder);
      },
    };
  }
}
