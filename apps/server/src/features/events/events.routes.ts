import type { ServerResponse } from 'node:http';
import type { MailboxService } from '../mailbox/mailbox.service.js';
import { caller, type App } from '../../http/types.js';
import type { EventBus, MailEvent } from './event-bus.js';

const HEARTBEAT_MS = 25_000;
// Bursts (a batch move, a group-commit of many deliveries) become one message.
const COALESCE_MS = 150;

/**
 * GET /h5/events: a server-sent-events stream of the caller's mailbox changes.
 * The web client reads it with fetch and an Authorization header, so the token
 * stays out of URLs; `t` works too, for EventSource. Every (re)connection starts
 * with the current counts ("hello"), which is how a client catches up after a gap.
 */
export function eventsRoutes(app: App, bus: EventBus, mailbox: MailboxService): void {
  const open = new Set<ServerResponse>();
  // Streams never end by themselves; the server would wait for them forever on shutdown.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });
  app.get('/h5/events', { schema: { tags: ['events'], hide: false } }, async (req, reply) => {
    const me = caller(req);
    reply.hijack();
    const res = reply.raw;
    open.add(res);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'Referrer-Policy': 'no-referrer',
    });
    const send = (event: string, data: unknown) => { res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`); };
    res.write('retry: 3000\n\n');
    send('hello', { mbox: await mailbox.index(me.userId) });

    let pending: { kinds: Set<string>; ids: Set<number>; folders: Set<number> } | null = null;
    let timer: NodeJS.Timeout | undefined;
    const flush = async () => {
      const batch = pending;
      pending = null;
      if (!batch || res.destroyed) return;
      const mbox = await mailbox.index(me.userId).catch(() => null);
      send('mail', { kinds: [...batch.kinds], ids: [...batch.ids].map(String), folders: [...batch.folders].map(String), mbox });
    };
    const unsubscribe = bus.subscribe(me.userId, (e: MailEvent) => {
      pending ??= { kinds: new Set(), ids: new Set(), folders: new Set() };
      pending.kinds.add(e.kind);
      for (const id of e.ids) pending.ids.add(id);
      for (const f of e.folders) pending.folders.add(f);
      clearTimeout(timer);
      timer = setTimeout(() => { void flush(); }, COALESCE_MS);
    });
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    req.raw.on('close', () => {
      open.delete(res);
      clearInterval(heartbeat);
      clearTimeout(timer);
      unsubscribe();
    });
  });
}
