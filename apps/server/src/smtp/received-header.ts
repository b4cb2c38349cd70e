import type { SMTPServerSession } from 'smtp-server';

/** RFC 5322 date-time, as Received and Date headers need it. */
function rfc5322Date(d: Date): string {
  return d.toUTCString().replace(/GMT$/, '+0000');
}

const clean = (s: string) => s.replace(/[\r\n()[\]\\]/g, '').slice(0, 200);

/**
 * The trace headers a receiving MTA prepends (RFC 5321 §4.4): Return-Path with the
 * envelope sender, then our Received line. "for" is named only with one recipient,
 * so the shared blob does not reveal the other recipients of a multi-recipient mail.
 */
export function traceHeaders(session: SMTPServerSession, hostname: string, now = new Date()): string {
  const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  const rcpts = session.envelope.rcptTo.map((r) => r.address);
  const helo = clean(session.hostNameAppearsAs || 'unknown');
  const rdns = clean(session.clientHostname || 'unknown');
  const proto = session.secure ? 'ESMTPS' : session.transmissionType || 'ESMTP';
  const forPart = rcpts.length === 1 ? `\r\n\tfor <${clean(rcpts[0] ?? '')}>` : '';
  return `Return-Path: <${clean(from)}>\r\n`
    + `Received: from ${helo} (${rdns} [${clean(session.remoteAddress)}])\r\n\tby ${hostname} (Mailwing) with ${proto} id ${session.id}${forPart};\r\n\t${rfc5322Date(now)}\r\n`;
}
