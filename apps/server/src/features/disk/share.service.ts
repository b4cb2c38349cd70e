import { createHash, randomBytes } from 'node:crypto';
import { Code, DiskMessages, DiskReasons, SHARE_MAX_TRIES, type Share, type ShareInfo } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError, notFound } from '../../errors.js';
import { dummyHash, hashPassword, verifyPassword } from '../account/password.js';
import type { DiskService } from './disk.service.js';
import * as repo from './share.repository.js';

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const gone = () => new AppError(Code.NotFound, DiskMessages.expired, { reason: DiskReasons.expired });

export interface SharedFile { name: string; size: number; blobHash: string; contentType: string }

/**
 * Public links to one disk file. The token is shown once and stored only as a hash
 * (like session tokens); the optional password is hashed with scrypt like account
 * passwords, and a link locks after SHARE_MAX_TRIES wrong ones.
 */
export class ShareService {
  constructor(private readonly db: Db, private readonly disk: DiskService, private readonly now: () => Date = () => new Date()) {}

  async create(userId: number, id: string, days: number, password: string | undefined): Promise<Share> {
    const node = await this.disk.live(userId, Number(id), 'file');
    const token = randomBytes(24).toString('base64url');
    const now = this.now();
    const expiresAt = days === 0 ? null : new Date(now.getTime() + days * 86_400_000);
    const row = await repo.insertShare(this.db, {
      userId, nodeId: node.id, tokenHash: tokenHash(token), passwordHash: password ? await hashPassword(password) : null, expiresAt, now,
    });
    return { id: String(row.id), nodeId: String(node.id), name: node.name, token, expiresAt: expiresAt ? Math.floor(expiresAt.getTime() / 1000) : null, hasPassword: !!password };
  }

  async revoke(userId: number, id: string): Promise<void> {
    if (!(await repo.deleteShare(this.db, userId, Number(id)))) throw notFound('Share');
  }

  async info(token: string): Promise<ShareInfo> {
    const s = await this.find(token);
    return { name: s.name, size: Number(s.size), expiresAt: s.expires_at ? Math.floor(s.expires_at.getTime() / 1000) : null, needsPassword: s.password_hash !== null };
  }

  /** The file behind a link, once its password (if any) is right. */
  async open(token: string, password: string | undefined): Promise<SharedFile> {
    const s = await this.find(token);
    if (s.password_hash !== null) {
      if (s.failed_tries >= SHARE_MAX_TRIES) throw new AppError(Code.TooMany, DiskMessages.locked, { reason: DiskReasons.locked });
      // Always a full scrypt, so a missing password is no faster to learn about than a wrong one.
      const good = await verifyPassword(password ?? '', password ? s.password_hash : dummyHash()) && !!password;
      if (!good) {
        await repo.addFailure(this.db, s.id);
        throw new AppError(Code.Invalid, { password: DiskMessages.badPassword }, { reason: DiskReasons.badPassword, reasons: { password: DiskReasons.badPassword } });
      }
    }
    return { name: s.name, size: Number(s.size), blobHash: s.blob_hash!, contentType: s.content_type };
  }

  private async find(token: string) {
    const s = await repo.findByToken(this.db, tokenHash(token));
    if (!s) throw notFound('Share');
    if (s.expires_at && s.expires_at.getTime() <= this.now().getTime()) throw gone();
    return s;
  }
}
