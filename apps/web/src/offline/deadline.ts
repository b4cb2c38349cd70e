/**
 * Waits for `work` at most `ms`: true when it settled (either way) in time, false when the
 * time ran out first. The work itself goes on; for the logout replay (logout.ts) a send
 * that answers late still lands, and its Idempotency-Key keeps that to once.
 */
export function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void work.then(() => true, () => true).then((done) => {
      clearTimeout(timer);
      resolve(done);
    });
  });
}
