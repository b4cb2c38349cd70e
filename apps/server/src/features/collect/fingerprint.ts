import { createHash } from 'node:crypto';

// How one collected mail is recognised again, from whichever protocol or account row:
// its Message-ID with its size when it has one (IMAP gives both without a download),
// else a hash of its bytes.

export function fingerprintOf(messageId: string | undefined | null, size: number): string | null {
  const id = /<[^<>\s]{1,900}>/.exec(messageId ?? '')?.[0];
  return id ? `mid:${id}:${size}` : null;
}

export function fingerprintRaw(raw: Buffer): string {
  return fingerprintOf(headerValue(raw, 'message-id'), raw.length) ?? `sha:${createHash('sha256').update(raw).digest('hex')}`;
}

/** One header's unfolded value from the header block (RFC 5322 §2.2.3), or undefined. */
export function headerValue(raw: Buffer, name: string): string | undefined {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, end === -1 ? Math.min(raw.length, 64 * 1024) : end).toString('latin1').replace(/\r?\n[ \t]+/g, ' ');
  const re = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im');
  return re.exec(head)?.[1]?.trim();
}

/** The envelope sender a POP3/IMAP mail had, from Return-Path (RFC 5321 §4.4); '' when absent. */
export function returnPath(raw: Buffer): string {
  return /<([^<>\s]*)>/.exec(headerValue(raw, 'return-path') ?? '')?.[1] ?? '';
}
