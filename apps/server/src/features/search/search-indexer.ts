import type { Db } from '../../db/connect.js';
import * as repo from './search.repository.js';

export interface SearchIndexerOptions {
  /** Mails moved into the index per statement. */
  batch: number;
  /** Deliveries this recent mean mail is streaming in: the index waits, unless too much waits already. */
  quietMs: number;
  /** Mails allowed to wait while deliveries keep coming; beyond this the index keeps up regardless. */
  maxWaiting: number;
}

export const SEARCH_INDEXER_DEFAULTS: SearchIndexerOptions = { batch: 500, quietMs: 300, maxWaiting: 5_000 };

/**
 * Keeps the full-text index (GIN, `mail_search`) up with deliveries, off their critical
 * path (migration 030). While mail streams in, the index waits, so a burst is taken in at
 * full speed and indexed in big batches the moment it pauses; search reads the waiting
 * lexemes meanwhile, so nothing is ever unfindable. A backlog past `maxWaiting` is indexed
 * even under load, which keeps the unindexed part small enough to scan.
 */
export class SearchIndexer {
  private lastDelivery = Number.NEGATIVE_INFINITY;

  constructor(private readonly db: Db, private readonly opts: SearchIndexerOptions = SEARCH_INDEXER_DEFAULTS, private readonly now: () => number = Date.now) {}

  /** Called after each delivery's commit (ingest.onNewMail). */
  delivered(): void {
    this.lastDelivery = this.now();
  }

  /** One batch, if it is time for one; returns how many mails it indexed (a QueueRunner tick). */
  async tick(): Promise<number> {
    if (this.now() - this.lastDelivery < this.opts.quietMs && !(await repo.pendingOver(this.db, this.opts.maxWaiting))) return 0;
    return repo.indexPending(this.db, this.opts.batch);
  }

  /** Indexes everything waiting now (tests, and a shutdown that wants a tidy index). */
  async drain(): Promise<number> {
    let total = 0;
    for (let n = await repo.indexPending(this.db, this.opts.batch); n > 0; n = await repo.indexPending(this.db, this.opts.batch)) total += n;
    return total;
  }
}
