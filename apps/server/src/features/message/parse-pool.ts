import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { AuthPeer, SenderAuthResult } from '../../smtp/sender-auth.js';
import type { BlobLocator } from '../../blob/blob-store.js';
import { openLocated } from '../../blob/blob-locator.js';
import { contentTokens, type TokenSource } from '../search/content-tokens.js';
import { startThread } from '../../worker-thread.js';
import { parseMail, unreadable, type ParsedContent } from './mail-parse.js';

/** The message itself, or where a worker reads it (a big one, staged in the blob store). */
export type ParseInput = { raw: Buffer; loc?: undefined } | { loc: BlobLocator; raw?: undefined };

/** A worker's task: a message to parse (and maybe check its sender), or stored contents to tokenise for the search index. */
type Task = { input: ParseInput; from: string; auth?: AuthPeer } | { tokens: TokenSource[] };
interface Job { id: number; task: Task; size: number; resolve: (v: ParsedContent | string[]) => void; reject: (e: unknown) => void; timer?: NodeJS.Timeout; checked?: AuthWait }
interface AuthWait { resolve: (r: SenderAuthResult) => void; reject: (e: unknown) => void; timer?: NodeJS.Timeout }
/** A parse's answer carries mailauth's when that was done first; otherwise `authPending`, and mailauth's answer follows on its own. */
type Done = { id: number; content?: ParsedContent; tokens?: string[]; error?: string; auth?: SenderAuthResult; authError?: string; authPending?: boolean };
interface Entry { worker: Worker; jobs: Map<number, Job>; bytes: number; checks: Map<number, AuthWait> }
/** What a settled job holds instead of its task and callbacks (ParsePool.settle says why). */
const RELEASED: Omit<Job, 'id' | 'size'> = { task: { tokens: [] }, resolve: () => {}, reject: () => {}, timer: undefined, checked: undefined };

/** DNS for sender authentication in the workers (smtp/auth-dns.ts): each worker keeps its own cache. */
export interface WorkerDns { servers: string[]; timeoutMs: number }

// A worker parses the jobs it holds at once; these bound what it holds (a big job goes
// alone), so a burst of big mail waits here, not in a worker's memory, and a job's
// time limit runs only while a worker has it.
const MAX_JOBS_PER_WORKER = 16;
const MAX_BYTES_PER_WORKER = 8 * 1024 * 1024;

/**
 * A parse worker's young generation: 192 MB (semi-spaces of 64 MB) instead of Node's 48. Some
 * of a worker's objects outlive two scavenges of the default size (~0.2 s apart under load)
 * and die within about a second (which ones was not pinned down), so at Node's default it
 * promoted ~17 KB per received mail into old space, which its scavenges copied into fresh
 * pages and mark-compacts then swept. Blast ingest with `--trace-gc-nvp` (2 Dec), over the
 * last 4,000 mails and their indexing: 72 scavenges and 72 MB promoted at the default; 39 and
 * 65 at 96 MB; 17 and 0.1 at 192 MB, its GC pauses 376 -> 54 ms. Its CPU per mail against the
 * main thread's in the same run, three interleaved pairs: 0.69/0.71/0.69 -> 0.64/0.62/0.66.
 * The price is memory a busy worker may fill before it scavenges, at most 128 MB more per
 * worker: `npm run bench:big-messages` (200 connections sending 20 MB each at once, PGlite)
 * peaked at 902 MB of RSS against 854.
 */
const PARSE_HEAP = { maxYoungGenerationSizeMb: 192 };

/**
 * Parses mail in worker threads, so MIME work (the heaviest CPU part of receiving)
 * runs beside the event loop that serves SMTP, HTTP and the embedded database, and
 * a message that makes the parser spin is cut off by terminating its worker.
 * With no workers configured it parses in-process.
 */
export class ParsePool {
  private readonly workers: Entry[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private turn = 0;

  /** Without `dns` the workers only parse, and sender authentication stays with the caller. */
  constructor(size: number, private readonly timeoutMs = 30_000, private readonly log?: Logger, private readonly dns?: WorkerDns) {
    for (let i = 0; i < size; i++) this.workers.push(this.spawn());
  }

  private spawn(): Entry {
    const entry: Entry = { worker: startThread('parse-worker', import.meta.url, { dns: this.dns }, PARSE_HEAP), jobs: new Map(), bytes: 0, checks: new Map() };
    entry.worker.unref();
    entry.worker.on('message', (m: Done) => {
      this.checked(entry, m);
      const job = entry.jobs.get(m.id);
      if (!job || (!m.content && !m.tokens && m.error === undefined)) return;
      const done = this.settle(entry, job);
      if (m.content) done.resolve(revive(m.content));
      else if (m.tokens) done.resolve(m.tokens);
      else done.reject(new Error(m.error ?? 'parse failed'));
      this.pump();
    });
    entry.worker.on('error', (err) => {
      this.log?.error({ err }, 'a mail parser worker failed; starting another');
      this.replace(entry, 'parser worker failed');
    });
    return entry;
  }

  /**
   * Sender authentication's answer, with the parse's or after it. A parse frees its worker's
   * slot at once: a sender whose DNS is slow holds no slot, and the caller's deadline
   * (InboundAuth) still applies; this pool's own limit only stops a lost answer from lingering.
   */
  private checked(entry: Entry, m: Done): void {
    const wait = entry.checks.get(m.id) ?? entry.jobs.get(m.id)?.checked;
    if (!wait) return;
    if (m.auth || m.authError !== undefined || (m.error !== undefined && !m.content)) {
      entry.checks.delete(m.id);
      clearTimeout(wait.timer);
      if (m.auth) wait.resolve(m.auth);
      else wait.reject(new Error(m.authError ?? m.error));
    } else if (m.authPending && !entry.checks.has(m.id)) {
      entry.checks.set(m.id, wait);
      wait.timer = setTimeout(() => {
        entry.checks.delete(m.id);
        wait.reject(new Error('sender authentication took too long'));
      }, this.timeoutMs);
    }
  }

  /**
   * Takes a job off its worker and returns what answering it needs; the job itself lets go of
   * everything. Why: a Map whose entries come and go (`entry.jobs`, a job per mail) leaves the
   * hash tables it outgrew in old space until the next full collection, and a scavenge takes
   * every slot of an old object as live, dead or not. Those tables still point at jobs, so a job
   * that kept its resolver kept the parsed content it was resolved with, the mail's whole text,
   * through two scavenges into old space: nearly every received mail's (issue 13, 2 Dec: V8's
   * sampling heap profiler on the main thread, dead objects included but not those a scavenge
   * took, 4 s of blast ingest: 1,610–2,086 bodies kept in each of five runs; with the job
   * emptied, 0–160 in three runs of five and ~2,000 in the other two, so some other old object
   * still holds them at times, not found).
   */
  private settle(entry: Entry, job: Job): Job {
    entry.jobs.delete(job.id);
    entry.bytes -= job.size;
    clearTimeout(job.timer);
    const done = { ...job };
    Object.assign(job, RELEASED);
    return done;
  }

  private replace(entry: Entry, reason: string): void {
    const i = this.workers.indexOf(entry);
    if (i < 0) return;
    this.workers[i] = this.spawn();
    void entry.worker.terminate();
    // Mail on the broken worker is stored as unreadable, with the original attached: nothing is lost.
    // Tokenising fails, and the search indexer tries those mails again on its next turn.
    for (const job of [...entry.jobs.values()]) {
      const done = this.settle(entry, job);
      done.checked?.reject(new Error(reason));
      if ('tokens' in done.task) done.reject(new Error(reason));
      else done.resolve(unreadable(done.size, done.task.from, reason));
    }
    for (const wait of entry.checks.values()) {
      clearTimeout(wait.timer);
      wait.reject(new Error(reason));
    }
    entry.checks.clear();
    this.pump();
  }

  parse(raw: Buffer, from: string): Promise<ParsedContent> {
    return this.parseInput({ raw }, raw.length, from);
  }

  /**
   * Parses a message and, in the same turn of a worker, checks its sender (SPF, DKIM, DMARC:
   * sender-auth.ts), so neither runs on the thread that serves SMTP and the two overlap.
   * `checked` is absent when this pool does not authenticate (no workers, or no DNS given):
   * the caller then does it itself.
   */
  parseAndCheck(raw: Buffer, from: string, peer: AuthPeer): { content: Promise<ParsedContent>; checked?: Promise<SenderAuthResult> } {
    if (this.workers.length === 0 || !this.dns) return { content: this.parse(raw, from) };
    let checked!: AuthWait;
    const auth = new Promise<SenderAuthResult>((resolve, reject) => { checked = { resolve, reject }; });
    const content = this.run({ input: { raw }, from, auth: peer }, raw.length, checked) as Promise<ParsedContent>;
    return { content, checked: auth };
  }

  /** A message of `size` bytes that the worker reads itself (blob-locator.ts). */
  parseLocated(loc: BlobLocator, size: number, from: string): Promise<ParsedContent> {
    return this.parseInput({ loc }, size, from);
  }

  /** Each content's index tokens, one per line (contentTokens), made in a worker. */
  tokens(sources: TokenSource[]): Promise<string[]> {
    if (this.workers.length === 0) return Promise.resolve(sources.map((s) => contentTokens(s).join('\n')));
    const size = sources.reduce((n, s) => n + s.text.length, 0);
    return this.run({ tokens: sources }, size) as Promise<string[]>;
  }

  private parseInput(input: ParseInput, size: number, from: string): Promise<ParsedContent> {
    if (this.workers.length === 0) return parseMail(input.raw ? input.raw : openLocated(input.loc), from, size);
    return this.run({ input, from }, size) as Promise<ParsedContent>;
  }

  private run(task: Task, size: number, checked?: AuthWait): Promise<ParsedContent | string[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, size, resolve, reject, checked });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const job = this.queue[0]!;
      const entry = this.pick(job.size);
      if (!entry) return;
      this.queue.shift();
      entry.jobs.set(job.id, job);
      entry.bytes += job.size;
      job.timer = setTimeout(() => {
        this.log?.warn({ bytes: job.size }, 'tokens' in job.task ? 'tokenising for the search index took too long' : 'a message took too long to parse; stored as unreadable');
        this.replace(entry, 'parsing took too long');
      }, this.timeoutMs);
      const t = job.task;
      entry.worker.postMessage('tokens' in t ? { id: job.id, tokens: t.tokens } : { id: job.id, raw: t.input.raw, loc: t.input.loc, size: job.size, from: t.from, auth: t.auth });
    }
  }

  /** The next worker, in turn, that can take a job of this size now. */
  private pick(size: number): Entry | undefined {
    for (let k = 0; k < this.workers.length; k++) {
      const entry = this.workers[(this.turn + k) % this.workers.length]!;
      if (entry.jobs.size === 0 || (entry.jobs.size < MAX_JOBS_PER_WORKER && entry.bytes + size <= MAX_BYTES_PER_WORKER)) {
        this.turn = (this.turn + k + 1) % this.workers.length;
        return entry;
      }
    }
    return undefined;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
    this.workers.length = 0;
  }
}


/** Structured cloning keeps Dates; this guards the one Date field anyway. */
function revive(c: ParsedContent): ParsedContent {
  return { ...c, date: c.date ? new Date(c.date) : null };
}
