import { DiskMessages, DiskReasons, type DiskUsage } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../errors.js';
import { Code } from '@mailwing/shared';
import * as repo from './quota.repository.js';

/**
 * The one owner of "how much does this user use and may use". The limit is the
 * user's `quota_bytes` (its column default is the default quota; issue 17's admin
 * screens set it per user); mail and the disk count against the same limit.
 */
export class QuotaService {
  constructor(private readonly db: Db) {}

  async usage(userId: number): Promise<DiskUsage> {
    const u = await repo.usage(this.db, userId);
    return { quotaBytes: u.quota, usedBytes: u.mail + u.disk + u.reserved, mailBytes: u.mail, diskBytes: u.disk, reservedBytes: u.reserved };
  }

  /**
   * Inside a transaction: refuses unless `bytes` more fit, with the user's row locked
   * until that transaction ends, so the caller's insert of the reservation is atomic with the check.
   */
  async reserve(trx: Db, userId: number, bytes: number): Promise<void> {
    const u = await repo.usage(trx, userId, true);
    if (u.mail + u.disk + u.reserved + bytes > u.quota) {
      throw new AppError(Code.Invalid, { file: DiskMessages.quota }, { reason: DiskReasons.quota, reasons: { file: DiskReasons.quota } });
    }
  }
}
