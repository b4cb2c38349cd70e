/**
 * The sessions this process has found live, kept for a short while (issue 13: the session
 * lookup was a database round trip on every signed-in request, 12–20 % of what `mail/list`
 * could serve). A kept session is forgotten
 * - at once when this process writes one of the facts it rests on (SESSION_FACTS, through
 *   db/write-watch.ts), so its own next request never sees the old answer;
 * - when the change commits, whichever process made it, by the database's notification
 *   (migration 040, delivered through the event bus), and all of them when the connection
 *   that hears notifications drops;
 * - after `ttlMs` at the latest, and never later than the session's own expiry.
 * Only live sessions are kept: an unknown token is asked of the database every time, so
 * guessing tokens fills nothing. Nothing is kept or used while the process does not hear
 * the database's notifications (`active`: the event bus is listening and its connection is up).
 */
export interface KeptSession {
  sessionId: number;
  userId: number;
  email: string;
  companyId: number;
  role: 'user' | 'admin';
  lastSeenAt: Date;
  expiresAt: Date;
}

/** What a session's answer rests on: writes to these (a deletion, or an update of a column named) end or change it. */
export const SESSION_FACTS: Record<string, readonly string[]> = {
  sessions: ['token_hash', 'user_id', 'expires_at'],
  users: ['email', 'status', 'role', 'company_id'],
  companies: ['status'],
};

export class SessionCache {
  private readonly entries = new Map<string, { session: KeptSession; until: number }>();
  /** Moves on every forgetting, so a lookup that began before one does not keep what it read. */
  private generation = 0;

  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly active: () => boolean;

  constructor(opts: { active: () => boolean; ttlMs?: number; maxEntries?: number; now?: () => number }) {
    this.active = opts.active;
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  get(tokenHash: string): KeptSession | undefined {
    if (!this.active()) return undefined;
    const hit = this.entries.get(tokenHash);
    if (!hit) return undefined;
    if (hit.until > this.now()) return hit.session;
    this.entries.delete(tokenHash);
    return undefined;
  }

  /** The generation to hand back to `keep`, taken before asking the database. */
  mark(): number {
    return this.generation;
  }

  keep(tokenHash: string, session: KeptSession, since: number): void {
    if (since !== this.generation || this.ttlMs <= 0 || !this.active()) return;
    const until = Math.min(this.now() + this.ttlMs, session.expiresAt.getTime());
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { session, until });
  }

  forgetUser(userId: number): void {
    this.forgetWhere((s) => s.userId === userId);
  }

  forgetCompany(companyId: number): void {
    this.forgetWhere((s) => s.companyId === companyId);
  }

  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private forgetWhere(match: (s: KeptSession) => boolean): void {
    this.generation++;
    for (const [key, e] of this.entries) if (match(e.session)) this.entries.delete(key);
  }
}
