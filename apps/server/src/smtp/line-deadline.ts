import type { Socket } from 'node:net';

const LF = 0x0a;
const STARTTLS = /^starttls\s*$/i;

export type DeadlineMiss = 'line' | 'tls';

/**
 * Bounds how long one line from the client may take once it has begun: a command, or a
 * line of the message. smtp-server's socketTimeout is an idle timeout that every byte
 * resets, so a client trickling a byte every few seconds could otherwise hold the
 * connection forever. Waiting between lines is not counted; the idle timeout covers it.
 *
 * It watches the socket's bytes next to smtp-server's parser, and, after STARTTLS, the
 * TLS socket smtp-server hands to onSecure (watch() it again there). smtp-server drops
 * every listener of the plain socket when the upgrade begins, so the handshake is timed
 * from the STARTTLS line until watch() is called with the TLS socket.
 */
export class LineDeadline {
  private socket: Socket | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The first bytes of the line in progress: enough to know a STARTTLS line. */
  private head = '';
  private afterStartTls = false;

  constructor(private readonly ms: number, private readonly miss: (why: DeadlineMiss) => void) {}

  watch(socket: Socket): void {
    this.stop();
    this.socket = socket;
    socket.on('data', this.onData);
  }

  stop(): void {
    this.socket?.off('data', this.onData);
    this.socket = undefined;
    this.clear();
    this.head = '';
    this.afterStartTls = false;
  }

  private readonly onData = (chunk: Buffer): void => {
    if (this.afterStartTls) {
      // Still plain text after STARTTLS: it was refused and the session goes on.
      this.afterStartTls = false;
      this.clear();
    }
    const last = chunk.lastIndexOf(LF);
    if (last === -1) {
      if (this.head.length < 16) this.head += chunk.toString('latin1', 0, 16 - this.head.length);
      if (!this.timer) this.arm('line');
      return;
    }
    const prev = chunk.lastIndexOf(LF, last - 1);
    const line = prev === -1 ? this.head + chunk.toString('latin1', 0, Math.min(last, 16)) : chunk.toString('latin1', prev + 1, Math.min(last, prev + 17));
    this.clear();
    if (last < chunk.length - 1) {
      this.head = chunk.toString('latin1', last + 1, Math.min(chunk.length, last + 17));
      this.arm('line');
      return;
    }
    this.head = '';
    if (STARTTLS.test(line)) {
      this.afterStartTls = true;
      this.arm('tls');
    }
  };

  private arm(why: DeadlineMiss): void {
    this.timer = setTimeout(() => this.expire(why), this.ms);
    this.timer.unref();
  }

  private expire(why: DeadlineMiss): void {
    this.timer = undefined;
    const socket = this.socket;
    if (!socket) return;
    if (why === 'tls') {
      // Our listener still attached means smtp-server never began the upgrade (STARTTLS was refused).
      if (socket.listeners('data').includes(this.onData)) return;
    } else if (socket.isPaused()) {
      // smtp-server stopped reading (backpressure), so the rest of the line may be waiting in the kernel.
      this.arm('line');
      return;
    }
    this.miss(why);
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
