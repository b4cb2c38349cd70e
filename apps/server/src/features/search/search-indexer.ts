import type { Db } from '../../db/connect.js';
import type { TokenSource } from './content-tokens.js';
import * as repo from './search.repository.js';

export interface SearchIndexerOptions {
  /** Mails indexed per statement. */
  batch: number;
  /** Deliveries this recent mean mail is streaming in: the index waits, unless too much waits already. */
  quietMs: number;
  /** Mails allowed to wait while deliveries keep coming; beyond this the index keeps up regardless. */
  maxWaiting: number;
}

export const SEARCH_INDEXER_DEFAULTS: SearchIndexerOptions = { batch: 500, quietMs: 300, maxWaiting: 5_000 };

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
export class SearchIndexer {
  private lastDelivery = Number.NEGATIVE_INFINITY;

  constructor(private readonly db: Db, private readonly tokenise: Tokenise, private readonly opts: SearchIndexerOptions = SEARCH_INDEXER_DEFAULTS, private readonly now: () => number = Date.now) {}

  /** Called after each delivery's commit (ingest.onNewMail). */
  delivered(): void {
    this.lastDelivery = this.now();
  }

  /** One batch, if it is time for one; returns how many mails it indexed (a QueueRunner tick). */
  async tick(): Promise<number> {
    if (this.now() - this.lastDelivery < this.opts.quietMs && !(await repo.pendingOver(this.db, this.opts.maxWaiting))) return 0;
    return (await this.indexBatch()) ?? 0;
  }

  /** Indexes everything of this user's mail that waits, before a search of it. */
  async catchUp(userId: number): Promise<number> {
    return this.untilDone(() => this.indexBatch(userId));
  }

  /** Indexes everything waiting now (tests, and a shutdown that wants a tidy index). */
  async drain(): Promise<number> {
    return this.untilDone(() => this.indexBatch());
  }

  private async untilDone(step: () => Promise<number | null>): Promise<number> {
    let total = 0;
    for (let n = await step(); n !== null; n = await step()) total += n;
    return total;
  }

  /**
   * Tokenises one batch of waiting contents and stores their lexemes. Returns how many it
   * indexed, or null when none waited (another indexer may have taken what it read: 0).
   */
  private async indexBatch(userId?: number): Promise<number | null> {
    const waiting = await repo.pendingContents(this.db, this.opts.batch, userId);
    if (waiting.length === 0) return null;
    const pieces: Promise<string[]>[] = [];
    for (let i = 0; i < waiting.length; i += TOKENISE_PIECE) pieces.push(this.tokenise(waiting.slice(i, i + TOKENISE_PIECE)));
    const tokens = (await Promise.all(pieces)).flat();
    return repo.storeLexemes(this.db, waiting.map((w) => w.id), tokens);
  }
}
