import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { startThread } from '../../worker-thread.js';
import type { FilingBatch } from './filing.repository.js';
import type { FilingDone, FilingJob, FilingWorkerData } from './filing-worker.js';

/**
 * A young generation of at most 16 MB. This thread allocates ~100 KB of buffers per mail outside
 * V8's heap (the batch's bytes, their packing, pg's growing Bind message) but little inside it.
 * Left to grow its young generation (to 48 MB), V8 often scavenged so rarely that the dead
 * buffers reached its external-memory limit, and each time it ran a full mark-compact of a 20 MB
 * heap that freed next to nothing. `--trace-gc` over 7,000 blast mails (PostgreSQL, 1 Dec): 24
 * scavenges and 26–29 mark-compacts in three runs of five (the other two: 33 and 2), with this
 * thread's GC at 0.7–0.95 s and its CPU per mail plus V8's helper threads' ~0.3 ms above the
 * good runs. Capped: 51 scavenges and 1 mark-compact, 0.14–0.18 s, in each of three runs (issue 13).
 */
const FILING_HEAP = { maxYoungGenerationSizeMb: 16 };

/**
 * Files delivery batches on PostgreSQL from a thread of its own, over its own connection
 * (filing-worker.ts runs the same fileMail), so a batch's round trip to the database does
 * not wait on the event loop that serves SMTP and HTTP.
 *
 * Why (issue 13, 30 Nov, PostgreSQL, blast load of 20 connections on 2 cores): the one
 * commit in flight was the bottleneck, busy 83–89 % of the time, and a batch took ~11 ms
 * whatever its size (1 mail or 4), of which PostgreSQL ran it for ~5.4 ms. The rest was
 * the main event loop, 75 % busy (timers late by ~4 ms at the median), picking up the
 * answer. From here a batch's answer is read at once and the main thread no longer builds
 * or sends the statement; what it pays instead is posting the batch (one structured clone).
 *
 * A batch whose thread dies fails as on a dropped connection (GroupCommitter retries its
 * items one by one, a failure is a 451), and the next batch starts a new thread.
 */
export class FilingThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (ids: number[]) => void; reject: (e: unknown) => void }>();
  private closed = false;

  constructor(private readonly databaseUrl: string, private readonly log?: Logger) {}

  /** Files one batch (fileMail's contract): resolves with the new mail ids once committed. */
  file(batch: FilingBatch): Promise<number[]> {
    if (this.closed) return Promise.reject(new Error('the filing thread is closed'));
    const worker = this.worker ?? this.start();
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      // While a batch waits for its answer the thread keeps the process alive; idle, it does not.
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, batch } satisfies FilingJob);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    // Its connection goes with it; nothing is in flight once the service stops taking mail.
    if (worker) await worker.terminate();
    this.failAll(new Error('the filing thread is closed'));
  }

  private start(): Worker {
    const worker = startThread('filing-worker', import.meta.url, { databaseUrl: this.databaseUrl } satisfies FilingWorkerData, FILING_HEAP);
    // Started on the first batch, so a process that never takes mail has no extra connection.
    worker.on('message', (m: FilingDone) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) worker.unref();
      if (m.ids) w.resolve(m.ids);
      else w.reject(Object.assign(new Error(m.error?.message ?? 'filing failed'), dropUndefined({ code: m.error?.code, responseCode: m.error?.responseCode })));
    });
    const gone = (err: unknown): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.log?.error({ err }, 'the filing thread stopped');
      this.failAll(new Error('the filing thread stopped'));
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`exit ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(err);
  }
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
