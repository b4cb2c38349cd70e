import { describe, expect, it } from 'vitest';
import { GroupCommitter } from '../src/db/group-commit.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('GroupCommitter', () => {
  it('commits a lone item at once, and items arriving meanwhile together in the next commit', async () => {
    const batches: number[][] = [];
    const gc = new GroupCommitter<number, number>(async (items) => { batches.push(items); await tick(); return items.map((i) => i * 10); });
    const results = await Promise.all([1, 2, 3, 4].map((i) => gc.submit(i)));
    expect(results).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('retries a failed batch item by item, so only the bad item fails', async () => {
    const gc = new GroupCommitter<number, number>(async (items) => {
      await tick();
      if (items.includes(3)) throw new Error(`bad item in ${items.join(',')}`);
      return items;
    });
    const first = gc.submit(1);
    const rest = [2, 3, 4].map((i) => gc.submit(i).then((v) => ({ ok: v }), (e: Error) => ({ err: e.message })));
    expect(await first).toBe(1);
    expect(await Promise.all(rest)).toEqual([{ ok: 2 }, { err: 'bad item in 3' }, { ok: 4 }]);
  });

  it('keeps at most `concurrency` commits in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const gc = new GroupCommitter<number, number>(async (items) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await tick();
      inFlight -= 1;
      return items;
    }, { maxBatch: 2, concurrency: 3 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => gc.submit(i)));
    expect(peak).toBe(3);
  });

  it('sends a batch beside one in flight only once `overlapMin` items wait; fewer wait for a free slot', async () => {
    const batches: number[][] = [];
    const finish: (() => void)[] = [];
    const gc = new GroupCommitter<number, number>((items) => {
      batches.push(items);
      return new Promise((resolve) => finish.push(() => resolve(items)));
    }, { maxBatch: 64, concurrency: 2, overlapMin: 3 });
    // Settled promises run their callbacks (the committer's own .finally and pump) before this resolves.
    const settle = () => new Promise((r) => setImmediate(r));
    const all = [gc.submit(1)];
    expect(batches).toEqual([[1]]);
    all.push(gc.submit(2), gc.submit(3));
    expect(batches).toEqual([[1]]);
    all.push(gc.submit(4));
    expect(batches).toEqual([[1], [2, 3, 4]]);
    all.push(gc.submit(5));
    finish.shift()!();
    await settle();
    // A slot is free, but one item waits and a batch is still in flight.
    expect(batches).toEqual([[1], [2, 3, 4]]);
    finish.shift()!();
    await settle();
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
    finish.shift()!();
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
  });
});
