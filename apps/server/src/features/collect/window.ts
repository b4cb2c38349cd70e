/**
 * Stores fetched mail a few at a time: the protocol fetches one message after another,
 * while the stores of the last few run together and share a group commit (one fsync and
 * one transaction for several mails instead of one each). A window closes at `count`
 * mails or `bytes` buffered, whichever comes first; the caller acts on the server (DELE,
 * expunge, the last UID) only after a window is fully stored.
 */
export class StoreWindow<T> {
  private pending: { item: T; done: Promise<boolean> }[] = [];
  private bytes = 0;

  constructor(private readonly count = 16, private readonly maxBytes = 16 * 1024 * 1024) {}

  add(item: T, size: number, store: Promise<boolean>): void {
    // Rejections are collected by flush(); until then the promise must not count as unhandled.
    store.catch(() => undefined);
    this.pending.push({ item, done: store });
    this.bytes += size;
  }

  get full(): boolean {
    return this.pending.length >= this.count || this.bytes >= this.maxBytes;
  }

  /** Waits for every store of the window; throws the first failure after all have settled. Returns [item, stored-new]. */
  async flush(): Promise<[T, boolean][]> {
    const batch = this.pending;
    this.pending = [];
    this.bytes = 0;
    const settled = await Promise.allSettled(batch.map((p) => p.done));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return batch.map((p, i) => [p.item, (settled[i] as PromiseFulfilledResult<boolean>).value]);
  }
}
