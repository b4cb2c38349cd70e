import type { Socket } from 'node:net';
import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';
import type { SmtpLimitsConfig } from '../config.js';
import { IpLimiter } from './ip-limiter.js';
import { LineDeadline, type DeadlineMiss } from './line-deadline.js';
import { smtpReply } from './smtp-reply.js';

type Connection = SMTPServer['connections'] extends Set<infer C> ? C : never;

interface Guarded { address: string; deadline: LineDeadline; sessionTimer: NodeJS.Timeout }

const MISSED: Record<DeadlineMiss, { text: string; reason: string }> = {
  line: { text: '4.4.2 Command line not completed in time, closing connection', reason: 'smtp.command_deadline' },
  tls: { text: '4.4.2 TLS handshake not completed in time, closing connection', reason: 'smtp.tls_deadline' },
};

/**
 * Keeps one client from holding the MX (issue 12, finding 5): a cap on sessions open at
 * once and on new sessions per minute from one address, a deadline for each line the
 * client sends, and a longest session. All of it is in this process's memory, per node.
 * Wire admit, secured and closed to smtp-server's onConnect, onSecure and onClose.
 */
export class ConnectionGuard {
  private readonly ips: IpLimiter;
  private readonly guarded = new Map<SMTPServerSession, Guarded>();

  constructor(private readonly limits: SmtpLimitsConfig, private readonly log: Logger) {
    this.ips = new IpLimiter({ maxConcurrent: limits.maxConnectionsPerIp, perMinute: limits.connectionsPerMinutePerIp });
  }

  admit(server: SMTPServer, session: SMTPServerSession, cb: (err?: Error | null) => void): void {
    const address = session.remoteAddress;
    const verdict = this.ips.admit(address);
    if (verdict !== 'ok') {
      const reason = verdict === 'too_many' ? 'smtp.ip_connections' : 'smtp.ip_connection_rate';
      this.log.info({ reason, ip: address }, 'SMTP connection refused');
      // 421 at connect (RFC 5321 §3.8): the client closes and tries again later.
      return cb(smtpReply(421, verdict === 'too_many' ? '4.7.0 Too many connections from your address' : '4.7.0 Too many new connections from your address, try again later'));
    }
    const conn = [...server.connections].find((c) => c.session === session);
    const deadline = new LineDeadline(this.limits.commandDeadlineMs, (why) => {
      this.log.info({ reason: MISSED[why].reason, ip: address }, 'SMTP client too slow');
      conn?.send(421, MISSED[why].text, false);
    });
    if (conn) deadline.watch(conn._socket);
    else this.log.warn({ ip: address }, 'SMTP connection not found at connect: no line deadline or session limit for it');
    const sessionTimer = setTimeout(() => this.endSession(conn, address), this.limits.maxSessionMs);
    sessionTimer.unref();
    this.guarded.set(session, { address, deadline, sessionTimer });
    cb();
  }

  /** After STARTTLS the commands arrive on the TLS socket. */
  secured(socket: Socket, session: SMTPServerSession, cb: (err?: Error | null) => void): void {
    this.guarded.get(session)?.deadline.watch(socket);
    cb();
  }

  closed(session: SMTPServerSession): void {
    const g = this.guarded.get(session);
    if (!g) return;
    this.guarded.delete(session);
    g.deadline.stop();
    clearTimeout(g.sessionTimer);
    this.ips.release(g.address);
  }

  /** Sessions open now from an address, as the per-IP cap counts them. */
  activeFrom(address: string): number {
    return this.ips.active(address);
  }

  private endSession(conn: Connection | undefined, address: string): void {
    if (!conn) return;
    // Not while smtp-server waits on one of our handlers: a message that is fully in and
    // being stored must get its answer, or the sender retries it and it arrives twice.
    // The same rule as smtp-server's own idle timeout.
    const parser = conn._parser;
    if (conn._handlerPending || (conn._dataStream && parser && !parser._dataMode)) {
      setTimeout(() => this.endSession(conn, address), 1_000).unref();
      return;
    }
    this.log.info({ reason: 'smtp.session_length', ip: address }, 'SMTP session too long');
    conn.send(421, '4.4.2 Session time limit reached, closing connection', false);
  }
}
