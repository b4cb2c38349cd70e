import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { DURABLE_START_PARAMS, DurableNodeFS } from './pglite-durable-fs.js';
import { PreparingClient } from './prepared.js';
import { PGliteStream } from './pglite-stream.js';
import { setTypeParsers } from './type-parsers.js';

// The embedded database's own thread (see pglite-client.ts for why it looks like this).
// PGlite runs here with a `pg` Client in front of it; the main thread sends SQL and
// gets rows back as structured clones, so neither the backend nor the wire protocol
// costs the event loop that serves SMTP and HTTP.

export interface QueryMessage { t: 'query'; id: number; sql: string; params: unknown[] }

// Statements (and their replies) issued in the same turn of an event loop travel as one
// 'batch': waking a sleeping thread costs the waker ~0.1 ms of CPU on a loaded 2-core VM
// whatever the message's size, so the number of messages is what counts (pglite-thread.ts).
export type ToWorker =
  | QueryMessage
  | { t: 'batch'; queries: QueryMessage[] }
  | { t: 'close' };

export interface WireError { message: string; fields: Record<string, string | undefined> }

export type Reply =
  | { t: 'result'; id: number; command: string; rowCount: number | null; rows: unknown[] }
  | { t: 'error'; id: number; error: WireError }
  | { t: 'notify'; channel: string; payload: string };

export type FromWorker =
  | Reply
  | { t: 'replies'; replies: Reply[] }
  | { t: 'ready' }
  | { t: 'fatal'; message: string }
  | { t: 'closed' };

export interface PGliteWorkerData { dataDir?: string }

// The fields pg copies from an ErrorResponse (protocol §55.8), so callers can still tell
// a unique violation from a syntax error.
const ERROR_FIELDS = ['severity', 'code', 'detail', 'hint', 'position', 'internalPosition', 'internalQuery', 'where', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

function wireError(err: unknown): WireError {
  const e = (err instanceof Error ? err : new Error(String(err))) as Error & Record<string, unknown>;
  const fields: Record<string, string | undefined> = {};
  for (const f of ERROR_FIELDS) if (typeof e[f] === 'string') fields[f] = e[f];
  return { message: e.message, fields };
}

async function main(port: NonNullable<typeof parentPort>, data: PGliteWorkerData): Promise<void> {
  // Replies and notifications go out together at the end of this thread's turn, in order.
  let outbox: Reply[] = [];
  const flush = (): void => {
    const replies = outbox;
    outbox = [];
    if (replies.length === 1) port.postMessage(replies[0]! satisfies FromWorker);
    else if (replies.length > 1) port.postMessage({ t: 'replies', replies } satisfies FromWorker);
  };
  const reply = (m: Reply): void => {
    if (outbox.push(m) === 1) setImmediate(flush);
  };
  const post = (m: FromWorker): void => {
    flush();
    port.postMessage(m);
  };
  setTypeParsers(pg.types);
  // On disk, commits and checkpoints are flushed to it (pglite-durable-fs.ts); in memory there is nothing to flush.
  const lite = data.dataDir ? new PGlite({ fs: new DurableNodeFS(data.dataDir), startParams: DURABLE_START_PARAMS }) : new PGlite();
  await lite.waitReady;
  const client = new PreparingClient({ user: 'postgres', database: 'postgres', stream: () => new PGliteStream(lite) });
  client.on('error', (err) => post({ t: 'fatal', message: err.message }));
  // NOTIFY from our own session arrives in the reply to the COMMIT that sent it.
  client.on('notification', (n) => reply({ t: 'notify', channel: n.channel, payload: n.payload ?? '' }));
  await client.connect();

  let closing = false;
  // One statement at a time, in the order they came. The queue is ours, not pg's: a second
  // client.query() while one runs is deprecated in pg 8 (it prints a DeprecationWarning,
  // which `npm start` showed under the banner) and goes in pg 9.
  let tail: Promise<void> = Promise.resolve();
  const run = (m: QueryMessage): void => {
    tail = tail.then(() => (client.query(m.sql, m.params) as Promise<pg.QueryResult>).then(
      (r) => reply({ t: 'result', id: m.id, command: r.command, rowCount: r.rowCount, rows: r.rows }),
      (err: unknown) => reply({ t: 'error', id: m.id, error: wireError(err) }),
    ));
  };
  port.on('message', (m: ToWorker) => {
    if (m.t === 'query') {
      run(m);
      return;
    }
    if (m.t === 'batch') {
      for (const q of m.queries) run(q);
      return;
    }
    if (closing) return;
    closing = true;
    // The main thread asks only once nothing is in flight. PGlite's close shuts PostgreSQL
    // down (a checkpoint) and closes its files.
    void (async () => {
      await client.end().catch(() => undefined);
      await lite.close();
      post({ t: 'closed' });
    })().catch((err: unknown) => post({ t: 'fatal', message: wireError(err).message }));
  });
  post({ t: 'ready' });
}

if (parentPort) {
  const port = parentPort;
  main(port, workerData as PGliteWorkerData).catch((err: unknown) => port.postMessage({ t: 'fatal', message: wireError(err).message } satisfies FromWorker));
}
