import type { Worker } from 'node:worker_threads';
import { startThread } from '../worker-thread.js';
import type { FromWorker, PGliteWorkerData, QueryMessage, Reply, ToWorker } from './pglite-worker.js';

/*
 * The embedded database on a thread of its own (DESIGN.md: "the embedded database must
 * not sit on the thread that serves requests"; issue 13: PGlite took ~32% of the main
 * thread during SMTP ingest).
 *
 * Measured before choosing (2-core machine, shared; µs per statement, the main thread's
 * busy time from its event-loop utilisation; INSERT and a 50-row SELECT, 20 callers):
 *
 *   design                                          main-thread µs   wall µs (DB-thread bound)
 *                                                   insert  select50  insert  select50
 *   PGlite in-process (before)                        289      739      289      739
 *   pglite-socket 0.1.6 in a worker, pg over a unix
 *     socket on the main thread                        61      316      365      954
 *   worker runs PGlite's query(), rows cloned back     17       74      308      798
 *   worker runs raw protocol, pg on the main thread    52      188      211      780
 *   worker runs pg over PGlite's raw protocol,
 *     rows cloned back (chosen)                        52       81      203      764
 *
 * pglite-socket (version 0.1.6 matches our PGlite 0.4.6) interleaves connections one wire
 * message at a time, so two pg connections can break each other's Parse/Bind/Execute; with
 * one connection it is simply the slowest (a syscall and a backend entry per message), and
 * it would need a socket file that any local process could connect to without a password.
 * `pg` on the main thread would make the code path identical to PostgreSQL, but parsing
 * rows there costs the event loop 2-3x what receiving a structured clone does. PGlite's
 * own query() in the worker is lightest for the main thread but takes two backend entries
 * per statement (describe, then execute), which makes the one database thread the
 * bottleneck sooner. So `pg` runs inside the worker over PGlite's raw wire protocol
 * (pglite-stream.ts): values are parsed and serialised exactly as on PostgreSQL, each
 * statement is one backend entry, and the main thread only posts SQL and receives rows.
 *
 * PGlite has one backend session. Statements outside a transaction are sent at once
 * (the worker runs them in order); a transaction takes the session from its BEGIN to its
 * COMMIT or ROLLBACK, and statements from other callers wait meanwhile. NOTIFY is sent
 * from that same session, so it comes back with the reply to the COMMIT and is forwarded
 * here to the listeners.
 *
 * A COMMIT's reply leaves the worker only after its WAL is fsynced: PGlite would
 * have stopped at the OS (its fsync is off and a no-op on Node), so the worker opens it
 * with the file system of pglite-durable-fs.ts, which flushes what PostgreSQL asks to.
 *
 * Messages are few rather than small: posting to a thread that sleeps costs the poster
 * about 0.1 ms of CPU on this 2-core VM (the wake-up, not the bytes: 108 µs for an empty
 * message and for 22 KB alike), which was ~3 messages each way per ingested mail. So the
 * statements sent in one turn of the event loop go as one message at the turn's end
 * (setImmediate), in the order they were sent, and the worker answers the same way.
 */

export interface RawResult { command: string; rowCount: number | null; rows: unknown[] }

type Waiter =
  | { kind: 'query'; send: () => void; reject: (e: Error) => void }
  | { kind: 'lock'; owner: object; grant: () => void; reject: (e: Error) => void };

const LISTENER = {};

export class PGliteThread {
  private readonly pending = new Map<number, { resolve: (r: RawResult) => void; reject: (e: Error) => void }>();
  private readonly waiting: Waiter[] = [];
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private outbox: QueryMessage[] = [];
  private txOwner: object | null = null;
  private failure: Error | null = null;
  private closing: Promise<void> | null = null;
  private drained: (() => void) | null = null;
  private onClosed: (() => void) | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: FromWorker) => this.receive(m));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the database thread exited (code ${code})`)));
  }

  /** Opens PGlite in `dataDir` (none: in memory) on a new thread. */
  static async start(dataDir?: string): Promise<PGliteThread> {
    const worker = startThread('pglite-worker', import.meta.url, { dataDir } satisfies PGliteWorkerData);
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: FromWorker): void => {
        if (m.t !== 'ready' && m.t !== 'fatal') return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        if (m.t === 'ready') resolve();
        else reject(new Error(`the database did not open: ${m.message}`));
      };
      worker.on('message', onMessage);
      worker.on('error', reject);
    }).catch(async (err: unknown) => {
      await worker.terminate();
      throw err;
    });
    // Like a socket, the thread keeps the process alive only while statements are in flight.
    worker.unref();
    return new PGliteThread(worker);
  }

  /** Runs one statement for `owner` (a connection); waits while another owner's transaction holds the session. */
  query(owner: object, sql: string, params: readonly unknown[]): Promise<RawResult> {
    if (this.failure) return Promise.reject(this.failure);
    // A transaction already under way may still finish while the database closes.
    if (this.closing && this.txOwner !== owner) return Promise.reject(new Error('the database is closed'));
    return new Promise<RawResult>((resolve, reject) => {
      const send = (): void => {
        const id = this.nextId++;
        if (this.pending.size === 0) this.worker.ref();
        this.pending.set(id, { resolve, reject });
        if (this.outbox.push({ t: 'query', id, sql, params: [...params] }) === 1) setImmediate(() => this.flush());
      };
      if (this.txOwner === null || this.txOwner === owner) send();
      else this.waiting.push({ kind: 'query', send, reject });
    });
  }

  /** Sends the statements of this turn, in order; one whose values cannot be copied fails alone. */
  private flush(): void {
    const queries = this.outbox;
    this.outbox = [];
    // A failed thread has already failed them.
    if (this.failure || queries.length === 0) return;
    try {
      this.worker.postMessage((queries.length === 1 ? queries[0]! : { t: 'batch', queries }) satisfies ToWorker);
      return;
    } catch {
      // Found out below, one by one.
    }
    for (const q of queries) {
      try {
        this.worker.postMessage(q satisfies ToWorker);
      } catch (err) {
        this.settle(q.id, (p) => p.reject(err instanceof Error ? err : new Error(String(err))));
      }
    }
  }

  /** Ends a statement in flight; the thread may sleep, and a close may go on, once none is left. */
  private settle(id: number, end: (p: { resolve: (r: RawResult) => void; reject: (e: Error) => void }) => void): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
    end(p);
    if (this.drained && this.pending.size === 0 && this.waiting.length === 0) {
      this.drained();
      this.drained = null;
    }
  }

  /** Takes the session for `owner`'s transaction, after the one in progress (if any) ends. */
  lock(owner: object): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.txOwner === null) {
      this.txOwner = owner;
      return Promise.resolve();
    }
    return new Promise<void>((grant, reject) => this.waiting.push({ kind: 'lock', owner, grant, reject }));
  }

  owns(owner: object): boolean {
    return this.txOwner === owner;
  }

  /** Gives the session back: statements queued behind the transaction go out, up to the next transaction. */
  unlock(owner: object): void {
    if (this.txOwner !== owner) return;
    this.txOwner = null;
    while (this.waiting.length > 0) {
      const w = this.waiting.shift()!;
      if (w.kind === 'query') {
        w.send();
        continue;
      }
      this.txOwner = w.owner;
      w.grant();
      break;
    }
  }

  /** LISTEN on the one session; `fn` gets each payload sent to `channel`. Returns an unlisten. */
  async listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> {
    let fns = this.listeners.get(channel);
    if (!fns) {
      fns = new Set();
      this.listeners.set(channel, fns);
      await this.query(LISTENER, `LISTEN ${quoteIdent(channel)}`, []);
    }
    fns.add(fn);
    const mine = fns;
    return async () => {
      mine.delete(fn);
      if (mine.size > 0 || this.listeners.get(channel) !== mine) return;
      this.listeners.delete(channel);
      if (!this.failure && !this.closing) await this.query(LISTENER, `UNLISTEN ${quoteIdent(channel)}`, []);
    };
  }

  /** Lets the statements in flight finish, shuts PGlite down cleanly and ends the thread. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    if (!this.failure && (this.pending.size > 0 || this.waiting.length > 0)) await new Promise<void>((r) => { this.drained = r; });
    if (this.failure) {
      await this.worker.terminate();
      return;
    }
    this.worker.ref();
    await new Promise<void>((resolve) => {
      this.onClosed = resolve;
      this.worker.postMessage({ t: 'close' } satisfies ToWorker);
    });
    await this.worker.terminate();
  }

  private receive(m: FromWorker): void {
    switch (m.t) {
      case 'result':
      case 'error':
      case 'notify':
        this.reply(m);
        return;
      case 'replies':
        for (const r of m.replies) this.reply(r);
        return;
      case 'closed':
        this.onClosed?.();
        return;
      case 'fatal':
        this.fail(new Error(`the database failed: ${m.message}`));
        return;
      case 'ready':
        return;
    }
  }

  private reply(m: Reply): void {
    if (m.t === 'result') {
      this.settle(m.id, (p) => p.resolve({ command: m.command, rowCount: m.rowCount, rows: m.rows }));
      return;
    }
    if (m.t === 'error') {
      this.settle(m.id, (p) => p.reject(Object.assign(new Error(m.error.message), m.error.fields)));
      return;
    }
    for (const fn of this.listeners.get(m.channel) ?? []) {
      try {
        fn(m.payload);
      } catch {
        // A listener's failure is its own; the others still hear the event.
      }
    }
  }

  /** The thread is gone: every statement waiting or in flight fails, and so does every later one. */
  private fail(err: Error): void {
    if (this.onClosed) {
      // Ending after a clean close is how it should end.
      this.onClosed();
      return;
    }
    if (this.failure) return;
    this.failure = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    for (const w of this.waiting.splice(0)) w.reject(err);
    this.drained?.();
    void this.worker.terminate();
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
