/**
 * Group commit: callers submit items one at a time; items that arrive while the
 * commit slots are busy go together into the next transaction. Nobody waits for a
 * timer, so a lone item commits at once, and under load one transaction carries
 * many. Each caller's promise settles only after its own item's commit, which
 * keeps "acknowledge after commit" true per item.
 *
 * `concurrency` is how many transactions may be in flight. Ingest keeps one at work in
 * the database, with a second queued behind it on PostgreSQL's filing thread
 * (ingest.service.ts says why); more would overlap a server's WAL flushes at the price
 * of smaller batches. `overlapMin` is how many items must wait before a batch goes out
 * while another is still in flight; fewer wait for a free slot and join what comes meanwhile.
 * A failed batch (a deadlock between concurrent batches, or one bad item) is retried item by
 * item, so it cannot fail its neighbours.
 */
export class GroupCommitter<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private active = 0;

  constructor(
    private readonly commit: (items: T[]) => Promise<R[]>,
    private readonly opts: { maxBatch: number; concurrency: number; overlapMin?: number } = { maxBatch: 64, concurrency: 1 },
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.active < this.opts.concurrency && this.queue.length > 0) {
      if (this.active > 0 && this.queue.length < (this.opts.overlapMin ?? 1)) return;
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.active += 1;
      void this.run(batch).finally(() => {
        this.active -= 1;
        this.pump();
      });
    }
  }

  private async run(batch: typeof this.queue): Promise<void> {
    try {
      const results = await this.commit(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i]!));
      return;
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
    }
    for (const b of batch) {
      try {
        b.resolve((await this.commit([b.item]))[0]!);
      } catch (e) {
        b.reject(e);
      }
    }
  }
}
