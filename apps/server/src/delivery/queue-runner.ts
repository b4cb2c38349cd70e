import type { Logger } from 'pino';

/**
 * Runs a unit of queue work in a loop: again at once while there was work (or a
 * wake-up came in meanwhile), otherwise after the poll interval. Polling is what
 * makes timed sends and retries happen; wake() only shortens the wait after a send.
 */
export class QueueRunner {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private started = false;
  private again = false;

  constructor(private readonly tick: () => Promise<number>, private readonly pollMs: number, private readonly log?: Logger) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  wake(): void {
    if (!this.started) return;
    if (this.current) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    await this.current;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.current = this.loop().finally(() => { this.current = undefined; }); }, ms);
  }

  private async loop(): Promise<void> {
    try {
      let busy = true;
      while (this.started && (busy || this.again)) {
        this.again = false;
        busy = (await this.tick()) > 0;
      }
    } catch (err) {
      this.log?.error({ err }, 'queue work failed');
    }
    if (this.started) this.schedule(this.pollMs);
  }
}
