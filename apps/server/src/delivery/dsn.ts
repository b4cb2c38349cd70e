import { randomBytes } from 'node:crypto';
import MimeNode from 'nodemailer/lib/mime-node/index.js';

export interface BounceInfo {
  reportingHost: string;
  /** The sender's domain, for the report's own From and Message-ID. */
  domain: string;
  sender: string;
  recipient: string;
  /** The last answer, e.g. "550 5.1.1 <x@y>: no such user". */
  diagnostic: string;
  remoteHost: string;
  arrivalDate: Date;
  /** The header block of the undelivered message. */
  originalHeaders: string;
  originalSubject: string;
}

/** The enhanced status code (RFC 3463) in a reply, or a generic permanent failure. */
export function statusCodeOf(diagnostic: string): string {
  return /\b([45]\.\d{1,3}\.\d{1,3})\b/.exec(diagnostic)?.[1] ?? '5.0.0';
}

/** The header block of a raw message: everything before the first empty line. */
export function headerBlock(raw: Buffer): string {
  const text = raw.subarray(0, Math.min(raw.length, 256 * 1024)).toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  return end < 0 ? text : text.slice(0, end);
}

/**
 * A delivery status notification (RFC 3464): multipart/report with a readable
 * explanation, the machine-readable message/delivery-status part, and the
 * original's headers (RFC 6522). Built with nodemailer's MIME tree, not by hand.
 */
export function buildBounce(b: BounceInfo): Promise<Buffer> {
  const root = new MimeNode('multipart/report; report-type=delivery-status');
  root.setHeader({
    From: `Mail Delivery System <mailer-daemon@${b.domain}>`,
    To: b.sender,
    Subject: `Undelivered Mail Returned to Sender: ${b.originalSubject}`.slice(0, 998),
    Date: new Date().toUTCString(),
    'Message-ID': `<${randomBytes(12).toString('hex')}.dsn@${b.domain}>`,
    // RFC 3834: an automatic reply, which other robots must not answer.
    'Auto-Submitted': 'auto-replied',
  });
  const human = [
    'Your message could not be delivered to this recipient:',
    '',
    `    ${b.recipient}`,
    '',
    `The receiving server${b.remoteHost ? ` (${b.remoteHost})` : ''} answered:`,
    '',
    `    ${b.diagnostic}`,
    '',
    '邮件未能送达上述收件人，对方服务器的回复见上。',
  ].join('\r\n');
  root.createChild('text/plain; charset=utf-8').setContent(human);
  const status = [
    `Reporting-MTA: dns; ${b.reportingHost}`,
    `Arrival-Date: ${b.arrivalDate.toUTCString()}`,
    '',
    `Final-Recipient: rfc822; ${b.recipient}`,
    'Action: failed',
    `Status: ${statusCodeOf(b.diagnostic)}`,
    ...(b.remoteHost ? [`Remote-MTA: dns; ${b.remoteHost}`] : []),
    `Diagnostic-Code: smtp; ${b.diagnostic.replace(/[\r\n]+/g, ' ')}`,
    '',
  ].join('\r\n');
  root.createChild('message/delivery-status').setContent(status);
  root.createChild('text/rfc822-headers').setContent(`${b.originalHeaders}\r\n`);
  return root.build();
}
