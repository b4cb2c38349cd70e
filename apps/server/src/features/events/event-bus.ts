import type { Logger } from 'pino';

/** One change to a mailbox, as the messages triggers announce it (migration 003). */
export interface MailEvent {
  userId: number;
  kind: 'new' | 'changed' | 'removed' | 'resync';
  ids: number[];
  folders: number[];
}

export const EVENTS_CHANNEL = 'mailwing_events';

/** A change that may end sessions or change what they may do (migration 040): a user's, a company's, or any (notifications lost). */
export type SessionChange = { userId: number } | { companyId: number } | 'all';

type Listen = (channel: string, fn: (payload: string) => void, onLost?: () => void, onDown?: () => void) => Promise<() => Promise<void>>;

/**
 * Fans database notifications out to the live streams of this node. Every node
 * LISTENs, so mail stored by any node (SMTP on A) reaches streams open on any
 * other (B). Nothing here is shared state: a node only holds its own subscribers.
 */
export class EventBus {
  private readonly subs = new Map<number, Set<(e: MailEvent) => void>>();
  private readonly sessionWatchers: ((c: SessionChange) => void)[] = [];
  private unlisten: (() => Promise<void>) | undefined;
  /** The connection that hears notifications dropped and is not back yet. */
  private down = false;

  constructor(private readonly listen: Listen, private readonly log?: Logger) {}

  async start(): Promise<void> {
    this.unlisten = await this.listen(EVENTS_CHANNEL, (payload) => this.dispatch(payload), () => {
      this.down = false;
      this.resyncAll();
    }, () => {
      this.down = true;
      this.sessionsUnheard();
    });
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    this.sessionsUnheard();
    await unlisten?.();
  }

  /** Between start and stop, while the connection is up: notifications from every process reach this one. */
  get listening(): boolean {
    return this.unlisten !== undefined && !this.down;
  }

  subscribe(userId: number, fn: (e: MailEvent) => void): () => void {
    const set = this.subs.get(userId) ?? new Set();
    set.add(fn);
    this.subs.set(userId, set);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.subs.delete(userId);
    };
  }

  /** Session changes share the mail events' channel (and its one connection per process). */
  onSessionChange(fn: (c: SessionChange) => void): void {
    this.sessionWatchers.push(fn);
  }

  private dispatch(payload: string): void {
    try {
      const p = JSON.parse(payload) as { u: number; k: MailEvent['kind']; ids?: number[] | null; f?: number[] | null; a?: number; c?: number };
      if (p.a !== undefined || p.c !== undefined) {
        const change: SessionChange = p.a !== undefined ? { userId: p.a } : { companyId: p.c! };
        for (const fn of this.sessionWatchers) fn(change);
        return;
      }
      const set = this.subs.get(p.u);
      if (!set) return;
      const event: MailEvent = { userId: p.u, kind: p.k, ids: p.ids ?? [], folders: p.f ?? [] };
      for (const fn of set) fn(event);
    } catch (err) {
      this.log?.warn({ err }, 'unreadable mail event');
    }
  }

  /** Notifications may have been lost: every stream is told to refetch. */
  private resyncAll(): void {
    this.sessionsUnheard();
    for (const [userId, set] of this.subs) for (const fn of set) fn({ userId, kind: 'resync', ids: [], folders: [] });
  }

  /** Session changes may have gone unheard (the connection dropped, or the bus stops): every kept session is forgotten. */
  private sessionsUnheard(): void {
    for (const fn of this.sessionWatchers) fn('all');
  }
}
