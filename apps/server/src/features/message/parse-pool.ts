import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { parseMail, unreadable, type ParsedContent } from './mail-parse.js';

interface Job { id: number; raw: Buffer; from: string; resolve: (c: ParsedContent) => void; reject: (e: unknown) => void; timer?: NodeJS.Timeout }


/**
 * Parses mail in worker threads, so MIME work (the heaviest CPU part of receiving)
 * runs beside the event loop that serves SMTP, HTTP and the embedded database, and
 * a message that makes the parser spin is cut off by terminating its worker.
 * With no workers configured it parses in-process.
 */
export class ParsePool {
  private readonly workers: { worker: Worker; jobs: Map<number, Job> }[] = [];
  private nextId = 1;
  private turn = 0;

  constructor(size: number, private readonly timeoutMs = 30_000, private readonly log?: Logger) {
    for (let i = 0; i < size; i++) this.workers.push(this.spawn());
  }

  private spawn(): { worker: Worker; jobs: Map<number, Job> } {
    const jobs = new Map<number, Job>();
    const worker = startWorker();
    worker.unref();
    worker.on('message', (m: { id: number; content?: ParsedContent; error?: string }) => {
      const job = jobs.get(m.id);
      if (!job) return;
      jobs.delete(m.id);
      clearTimeout(job.timer);
      if (m.content) job.resolve(revive(m.content));
      else job.reject(new Error(m.error ?? 'parse failed'));
    });
    const entry = { worker, jobs };
    worker.on('error', (err) => {
      this.log?.error({ err }, 'a mail parser worker failed; starting another');
      this.replace(entry, 'parser worker failed');
    });
    return entry;
  }

  private replace(entry: { worker: Worker; jobs: Map<number, Job> }, reason: string): void {
    const i = this.workers.indexOf(entry);
    if (i < 0) return;
    this.workers[i] = this.spawn();
    void entry.worker.terminate();
    // Jobs on the broken worker are stored as unreadable, with the original attached: nothing is lost.
    for (const job of entry.jobs.values()) {
      clearTimeout(job.timer);
      job.resolve(unreadable(job.raw, job.from, reason));
    }
  }

  parse(raw: Buffer, from: string): Promise<ParsedContent> {
    if (this.workers.length === 0) return parseMail(raw, from);
    const entry = this.workers[this.turn++ % this.workers.length]!;
    return new Promise<ParsedContent>((resolve, reject) => {
      const id = this.nextId++;
      const job: Job = { id, raw, from, resolve, reject };
      job.timer = setTimeout(() => {
        this.log?.warn({ bytes: raw.length }, 'a message took too long to parse; stored as unreadable');
        this.replace(entry, 'parsing took too long');
      }, this.timeoutMs);
      entry.jobs.set(id, job);
      entry.worker.postMessage({ id, raw, from });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
    this.workers.length = 0;
  }
}

/**
 * Running from TypeScript source (tsx), the worker must register tsx itself first.
 * Node 20 applies neither `--import` flags nor ESM hooks registered inside the worker
 * to its entry module in time, so it uses tsx's synchronous CommonJS hook.
 */
function startWorker(): Worker {
  const entry = new URL(`./parse-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  const tsxCjs = createRequire(import.meta.url).resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsxCjs)}); require(${JSON.stringify(fileURLToPath(entry))});`, { eval: true });
}

/** Structured cloning keeps Dates; this guards the one Date field anyway. */
function revive(c: ParsedContent): ParsedContent {
  return { ...c, date: c.date ? new Date(c.date) : null };
}
