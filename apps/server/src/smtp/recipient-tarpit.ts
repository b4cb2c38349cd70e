import type { SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';
import { smtpReply } from './smtp-reply.js';

export interface TarpitLimits {
  /** Refused recipients in one session answered at full speed. */
  after: number;
  /** The delay before the first slowed answer; each one after it waits this much longer again. */
  delayMs: number;
  /** At this many refused recipients the session ends. */
  max: number;
}

/**
 * Slows down directory harvesting (issue 12, finding 10): a session that keeps naming
 * recipients we refuse gets each further 550 later than the last, and at the cap a 421
 * that ends the session. Counted per connection, across RSET and transactions.
 */
export class RecipientTarpit {
  private readonly refused = new WeakMap<SMTPServerSession, number>();

  constructor(private readonly limits: TarpitLimits, private readonly log: Logger) {}

  /** Answers a refused RCPT with `refusal`, after the delay this session has earned, or ends the session. */
  refuse(session: SMTPServerSession, refusal: Error, cb: (err: Error) => void): void {
    const n = (this.refused.get(session) ?? 0) + 1;
    this.refused.set(session, n);
    if (n >= this.limits.max) {
      this.log.info({ reason: 'smtp.unknown_recipients', ip: session.remoteAddress, refused: n }, 'SMTP session ended: too many unknown recipients');
      // smtp-server closes the connection after any 421.
      return cb(smtpReply(421, '4.7.0 Too many unknown recipients'));
    }
    const slowed = n - this.limits.after;
    if (slowed <= 0) return cb(refusal);
    setTimeout(() => cb(refusal), this.limits.delayMs * slowed).unref();
  }
}
