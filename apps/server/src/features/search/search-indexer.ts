import type { Db } from '../../db/connect.js';
import type { TokenSource } from './content-tokens.js';
import * as repo from './search.repository.js';

export interface SearchIndexerOptions {
  /** Mails indexed per statement. */
  batch: number;
  /**
   * Mails per statement while deliveries keep coming (a backlog past `maxWaiting`): on PGlite a
   * statement holds the one database thread, and 500 mails' lexemes held it ~0.7 s, which every
   * delivery waiting behind it felt (p99 91 → 851 ms with the limit at 1,000, 29 Nov).
   */
  loadBatch: number;
  /** Deliveries this recent mean mail is streaming in: the index waits, unless too much waits already. */
  quietMs: number;
  /** Mails allowed to wait while deliveries keep coming; beyond this the index keeps up regardless. */
  maxWaiting: number;
}

export const SEARCH_INDEXER_DEFAULTS: SearchIndexerOptions = { batch: 500, loadBatch: 50, quietMs: 300, maxWaiting: 5_000 };

/** Makes each content's tokens, one per line, off the event loop (ParsePool.tokens, a worker). */
export type Tokenise = (sources: TokenSource[]) => Promise<string[]>;

// Tokens are made in pieces this big, so a parse job for new mail never waits behind a whole batch.
const TOKENISE_PIECE = 50;

/**
 * Keeps the full-text index (GIN, `mail_search`) up with deliveries, off their critical
 * path (migrations 030 and 037). A delivery only queues its content in `search_pending`;
 * while mail streams in, the index waits, so a burst is taken in at full speed and indexed
 * in big batches the moment it pauses. A backlog past `maxWaiting` is indexed even under
 * load. A search first indexes what waits of its owner's mail (`catchUp`), so nothing
 * delivered is ever unfindable.
 */
/** A batch read and tokenised, ready to be written. */
interface Prepared { ids: number[]; tokens: string[] }

export class SearchIndexer {
  private lastDelivery = Number.NEGATIVE_INFINITY;
  // The batch after the one `tick` writes, read and tokenised meanwhile, so the database and a
  // parse worker work at once (reading and tokenising were 0.54 of 1.86 ms a mail on PGlite
  // without it; the whole catching-up was not timed with and without).
  private next: Promise<Prepared | null> | null = null;

  constructor(private readonly db: Db, private readonly tokenise: Tokenise, private readonly opts: SearchIndexerOptions = SEARCH_INDEXER_DEFAULTS, private readonly now: () => number = Date.now) {}

  /** Called after each delivery's commit (ingest.onNewMail). */
  delivered(): void {
    this.lastDelivery = this.now();
  }

  /** One batch, if it is time for one; returns how many mails it indexed (a QueueRunner tick). */
  async tick(): Promise<number> {
    const busy = this.now() - this.lastDelivery < this.opts.quietMs;
    if (busy && !(await repo.pendingOver(this.db, this.opts.maxWaiting))) return 0;
    return (await this.indexBatch(busy ? this.opts.loadBatch : this.opts.batch)) ?? 0;
  }

  /** Indexes everything of this user's mail that waits, before a search of it. */
  catchUp(userId: number): Promise<number> {
    return this.sweep({ userId });
  }

  /** Indexes everything waiting now (tests, and a shutdown that wants a tidy index). */
  drain(): Promise<number> {
    return this.sweep({});
  }

  /** Every waiting content (of one user's mail, or all), batch after batch, each read while the last is written. */
  private async sweep(whose: { userId?: number }): Promise<number> {
    let total = 0;
    let ready = this.prepare({ ...whose, limit: this.opts.batch });
    for (let batch = await ready; batch; batch = await ready) {
      ready = this.prepare({ ...whose, after: batch.ids.at(-1), limit: this.opts.batch });
      // Settled by the next turn of the loop; a failed write leaves it, and it must not go unhandled.
      ready.catch(() => undefined);
      total += await repo.storeLexemes(this.db, batch.ids, batch.tokens);
    }
    return total;
  }

  /** Waits for a batch being read ahead (before the database closes). */
  async idle(): Promise<void> {
    await this.next?.catch(() => undefined);
  }

  /**
   * Writes one batch of waiting contents' lexemes while the next is read and tokenised.
   * Returns how many it indexed (0: another indexer took them), or null when none waited.
   */
  private async indexBatch(limit: number): Promise<number | null> {
    const ready = this.next ?? this.prepare({ limit });
    this.next = null;
    const read = await ready;
    if (!read) return null;
    // Read ahead for a quiet tick, it may be bigger than a tick under load may write: the rest stays queued.
    const batch = { ids: read.ids.slice(0, limit), tokens: read.tokens.slice(0, limit) };
    // Ids only grow, so the next batch starts past this one; one committed late below it is found when a batch comes up empty and reading starts over.
    const next = this.prepare({ after: batch.ids.at(-1), limit });
    next.catch(() => undefined);
    this.next = next;
    return repo.storeLexemes(this.db, batch.ids, batch.tokens);
  }

  private async prepare(from: { after?: number; userId?: number; limit: number }): Promise<Prepared | null> {
    const waiting = await repo.pendingContents(this.db, from.limit, from);
    if (waiting.length === 0) return null;
    const pieces: Promise<string[]>[] = [];
    for (let i = 0; i < waiting.length; i += TOKENISE_PIECE) pieces.push(this.tokenise(waiting.slice(i, i + TOKENISE_PIECE)));
    return { ids: waiting.map((w) => w.id), tokens: (await Promise.all(pieces)).flat() };
  }
}
