import type { Device } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { notFound } from '../../errors.js';
import type { AuthContext } from '../auth/auth.service.js';
import * as repo from './security.repository.js';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The user's signed-in devices (live sessions), and signing one of them out. */
export class DevicesService {
  constructor(private readonly db: Db) {}

  async list(me: AuthContext): Promise<Device[]> {
    const rows = await repo.liveSessions(this.db, me.userId);
    return rows.map((r) => ({
      id: String(r.id), userAgent: r.userAgent, ip: r.ip, createdAt: unix(r.createdAt), lastSeenAt: unix(r.lastSeenAt),
      current: r.id === me.sessionId, push: Boolean(r.push),
    }));
  }

  /** Another user's session id gets the same 404 as an unknown one (API.md), so ids cannot be probed. */
  async logout(me: AuthContext, id: string): Promise<void> {
    if (!(await repo.deleteOwnSession(this.db, me.userId, Number(id)))) throw notFound('Device');
  }
}
