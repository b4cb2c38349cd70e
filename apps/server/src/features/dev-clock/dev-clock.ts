import { DevClockInput, DevClockState, envelope } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';

/**
 * The clock timed sends go by, moved forward by a test rig (DEV_CLOCK=1, config.ts) so a
 * browser test sees a scheduled mail leave at its time without waiting for it in wall time.
 * Only the dispatcher's clock moves: sessions, certificates and everything else keep real
 * time. It is this process's alone, which is why config.ts allows it with one process only.
 */
export class DevClock {
  private offsetMs = 0;

  readonly now = (): Date => new Date(Date.now() + this.offsetMs);

  set(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }
}

/** Registered only when the config turns the dev clock on: otherwise the path is an unknown route. */
export function devClockRoutes(app: App, clock: DevClock, onMoved: () => void): void {
  app.post('/h5/dev/clock', { schema: { tags: ['system'], body: DevClockInput, response: { 200: envelope(DevClockState) } } }, async (req) => {
    clock.set(req.body.offsetMs);
    // Whatever is due by the new time goes now, not at the next poll.
    onMoved();
    return ok({ now: clock.now().toISOString() });
  });
}
