/**
 * Group commit: callers submit items one at a time; items that arrive while a
 * commit is running go together into the next one. Nobody waits for a timer,
 * so a lone item commits at once, and under load one transaction carries many.
 * Each caller's promise settles only after its own item's commit, which keeps
 * "acknowledge after commit" true per item. If a batch fails, its items are
 * retried one by one, so one bad item cannot fail its neighbours.
 */
export class GroupCommitter<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private running = false;

  constructor(private readonly commit: (items: T[]) => Promise<R[]>, private readonly maxBatch = 64) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.commit(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(results[i]!));
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
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
    } finally {
      this.running = false;
    }
  }
}
