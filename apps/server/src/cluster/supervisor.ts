import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { isReadyMessage, type ReadyMessage } from './worker.js';

export interface SupervisorOptions {
  processes: number;
  log: Logger;
  /** The wait before restarting a worker that died; doubles with each death soon after a start, up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A worker that ran this long before dying counts as stable: its back-off starts over. */
  stableMs?: number;
  /** How long stop() lets workers finish their sessions and jobs before killing them. */
  stopTimeoutMs?: number;
}

interface Slot { worker?: Worker; startedAt: number; quickDeaths: number; restart?: NodeJS.Timeout }

/**
 * The cluster primary: forks identical workers that share the listening sockets (Node hands
 * each new connection to the next worker in turn), keeps their number up, and stops them
 * gracefully. It opens no database and serves nothing itself.
 */
export class Supervisor {
  private readonly slots: Slot[];
  private stopping = false;
  private startup: { pending: Set<Slot>; resolve: (m: ReadyMessage) => void; reject: (e: Error) => void; first?: ReadyMessage } | undefined;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly stableMs: number;
  private readonly stopTimeoutMs: number;

  constructor(private readonly o: SupervisorOptions) {
    this.slots = Array.from({ length: o.processes }, () => ({ startedAt: 0, quickDeaths: 0 }));
    this.backoffMs = o.backoffMs ?? 1_000;
    this.maxBackoffMs = o.maxBackoffMs ?? 30_000;
    this.stableMs = o.stableMs ?? 60_000;
    // Above smtp-server's own 30 s wait for open sessions on close.
    this.stopTimeoutMs = o.stopTimeoutMs ?? 45_000;
  }

  /**
   * Forks every worker. Resolves once all listen; rejects if one exits first, which is a
   * start-up failure (a port in use, an unreachable database) that restarting would only repeat.
   */
  start(): Promise<ReadyMessage> {
    return new Promise((resolve, reject) => {
      this.startup = { pending: new Set(this.slots), resolve, reject };
      for (const slot of this.slots) this.fork(slot);
    });
  }

  /** Process ids of the running workers. */
  pids(): number[] {
    return this.slots.flatMap((s) => (s.worker?.process.pid !== undefined ? [s.worker.process.pid] : []));
  }

  /** SIGTERM to every worker (each then stops like a single process would), SIGKILL to any still running after the timeout. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const slot of this.slots) clearTimeout(slot.restart);
    const live = this.slots.flatMap((s) => (s.worker && !s.worker.isDead() ? [s.worker] : []));
    const kill = setTimeout(() => {
      for (const w of live) if (!w.isDead()) { this.o.log.warn({ pid: w.process.pid }, 'a worker did not stop in time; killing it'); w.process.kill('SIGKILL'); }
    }, this.stopTimeoutMs);
    await Promise.all(live.map((w) => new Promise<void>((resolve) => {
      if (w.isDead()) return resolve();
      w.once('exit', () => resolve());
      w.process.kill('SIGTERM');
    })));
    clearTimeout(kill);
  }

  private fork(slot: Slot): void {
    slot.restart = undefined;
    const worker = cluster.fork();
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.on('message', (m: unknown) => { if (isReadyMessage(m)) this.ready(slot, worker, m); });
    worker.on('exit', (code, signal) => this.exited(slot, worker, code, signal));
  }

  private ready(slot: Slot, worker: Worker, m: ReadyMessage): void {
    const s = this.startup;
    if (s) {
      s.first ??= m;
      s.pending.delete(slot);
      if (s.pending.size === 0) {
        this.startup = undefined;
        s.resolve(s.first);
      }
      return;
    }
    this.o.log.info({ pid: worker.process.pid }, 'a replacement worker is serving');
  }

  private exited(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    if (this.stopping) return;
    if (this.startup) {
      const s = this.startup;
      this.startup = undefined;
      s.reject(new Error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}) before it was serving`));
      return;
    }
    // A worker that keeps dying right after its start waits longer each time: no tight fork loop.
    slot.quickDeaths = Date.now() - slot.startedAt >= this.stableMs ? 0 : slot.quickDeaths + 1;
    const delay = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** slot.quickDeaths);
    this.o.log.error({ pid: worker.process.pid, code, signal, restartInMs: delay }, 'a worker process died; starting another');
    slot.restart = setTimeout(() => this.fork(slot), delay);
  }
}
