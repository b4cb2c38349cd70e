import { Code, type MboxIndex } from '@mailwing/shared';
import { session, sessionStore } from '../state/session';
import { publish, type LiveEvent, type MailEventKind } from './live-events';
import { apiBase } from './request';
import { createSseParser, type SseMessage } from './sse';

// Live updates: GET /h5/events, a server-sent-events stream of the caller's
// mailbox changes. Read with fetch and an Authorization header so the token
// stays out of URLs (and so out of proxy and server logs).

/** Delay before reconnection attempt n (0-based): doubling from base, capped at 30 s, with ±20% jitter. */
export function backoffMs(attempt: number, base = 1000, random = Math.random): number {
  const raw = Math.min(30_000, base * 2 ** Math.min(attempt, 10));
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/** Reads one live message into a LiveEvent, or null for anything we do not know. */
export function toLiveEvent(message: SseMessage, catchUp: boolean): LiveEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  const mbox = isMbox(d.mbox) ? d.mbox : null;
  if (message.event === 'hello') return mbox ? { type: 'hello', mbox, catchUp } : null;
  if (message.event === 'mail') {
    const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
    return { type: 'mail', kinds: strings(d.kinds) as MailEventKind[], ids: strings(d.ids), folders: strings(d.folders), mbox };
  }
  return null;
}

function isMbox(v: unknown): v is MboxIndex {
  return !!v && typeof v === 'object' && Array.isArray((v as MboxIndex).system) && Array.isArray((v as MboxIndex).custom);
}

// The server pings every 25 s; a stream silent for longer than this is dead
// (a proxy or a sleeping laptop dropped it without telling us).
const IDLE_MS = 70_000;

/** One token's connection, reconnecting with backoff until stopped. */
class LiveConnection {
  private stopped = false;
  private controller: AbortController | null = null;
  private wake: (() => void) | null = null;
  private helloSeen = false;

  constructor(private readonly token: string) {}

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
    this.wake?.();
  }

  /** Skip the wait before the next attempt (the network came back, the tab became visible). */
  retryNow(): void {
    this.wake?.();
  }

  async run(): Promise<void> {
    let attempt = 0;
    let base = 1000;
    while (!this.stopped) {
      const result = await this.connect();
      if (this.stopped || result.unauthorized) return;
      if (result.retry !== undefined) base = result.retry;
      attempt = result.greeted ? 0 : attempt + 1;
      await this.sleep(backoffMs(attempt, base));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private async connect(): Promise<{ greeted: boolean; unauthorized: boolean; retry?: number }> {
    const controller = new AbortController();
    this.controller = controller;
    let greeted = false;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(), IDLE_MS);
    };
    const parser = createSseParser((message) => {
      const event = toLiveEvent(message, this.helloSeen);
      if (!event) return;
      if (event.type === 'hello') {
        greeted = true;
        this.helloSeen = true;
      }
      publish(event);
    });
    try {
      touch();
      const response = await fetch(`${apiBase()}/events`, {
        headers: { Authorization: `Bearer ${this.token}`, Accept: 'text/event-stream' },
        credentials: 'omit',
        cache: 'no-store',
        signal: controller.signal,
      });
      if (!response.ok || !response.body) return { greeted, unauthorized: false };
      // Refused before the stream starts: the envelope comes as JSON (401 = session gone).
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        const envelope = (await response.json().catch(() => null)) as { code?: number } | null;
        if (envelope?.code === Code.Unauthorized) {
          if (session.get().token === this.token) session.logout();
          return { greeted, unauthorized: true };
        }
        return { greeted, unauthorized: false };
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        touch();
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Network failure, server restart or our own abort: reconnect below.
    } finally {
      clearTimeout(idle);
      if (this.controller === controller) this.controller = null;
    }
    return { greeted, unauthorized: false, retry: parser.retry };
  }
}

let current: LiveConnection | null = null;
let currentToken = '';

function follow(token: string): void {
  if (token === currentToken) return;
  current?.stop();
  current = null;
  currentToken = token;
  if (!token) return;
  current = new LiveConnection(token);
  void current.run();
}

let started = false;

/**
 * Keeps one live connection open while a token is held: it opens at login,
 * moves to a new token, and closes at logout (no reconnection after that).
 */
export function startLiveUpdates(): void {
  if (started) return;
  started = true;
  follow(sessionStore.get().token);
  sessionStore.subscribe(() => follow(sessionStore.get().token));
  window.addEventListener('online', () => current?.retryNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') current?.retryNow();
  });
  // Issue 15: the offline layer (banner, kept mail, outbox replay) follows the session too.
  // Started from here, not main.tsx, so the first screen carries no byte of it.
  void import('../offline/boot').then(({ startOffline }) => startOffline());
}
