import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import * as repo from './auth.repository.js';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Makes sessions once every factor is proven. Its own class so that second
 * verification (which ends in a session) can be built before AuthService, and
 * AuthService can take the second factor in its constructor (issue 12: a setter
 * that wiring could forget let TOTP users in with a password alone).
 */
export class SessionIssuer {
  constructor(private readonly db: Db, private readonly sessionDays: number) {}

  async create(userId: number, client: { ip: string; userAgent: string }): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.sessionDays * 86_400_000);
    await repo.insertSession(this.db, { userId, tokenHash: hashToken(token), ip: client.ip, userAgent: client.userAgent, expiresAt });
    return token;
  }
}
