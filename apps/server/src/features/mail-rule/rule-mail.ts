import { randomBytes } from 'node:crypto';
import { dkimSign } from '../../delivery/dkim.js';
import { composeMime } from '../message/compose-mime.js';
import type { ParsedContent } from '../message/mail-parse.js';

export interface Mailbox { id: number; email: string; name: string; companyId: number; domain: string; selector: string; privateKey: string }

/** Marks mail a rule forwarded: such mail is never forwarded by a rule again (a loop between two forwarding mailboxes ends at once). */
export const FORWARDED_HEADER = 'x-mailwing-forwarded';

const fold = (v: string) => v.replace(/[\r\n]+/g, ' ');

/**
 * A rule's forward is the original resent as it is (RFC 5322 §3.6.6 Resent-* fields),
 * not wrapped as an attachment: the recipient sees the real sender and can answer
 * them, attachments and threading stay intact, and the original's DKIM signature
 * still verifies because its signed headers and body are untouched. We add our own
 * signature for the forwarding hop, so the receiving side can tell who resent it.
 */
export async function resendAsIs(raw: Buffer, box: Mailbox, to: string, now: Date): Promise<Buffer> {
  const head = [
    `Resent-From: ${box.email}`,
    `Resent-To: ${fold(to)}`,
    `Resent-Date: ${now.toUTCString().replace('GMT', '+0000')}`,
    `Resent-Message-ID: <${randomBytes(16).toString('hex')}@${box.domain}>`,
    `X-Mailwing-Forwarded: ${box.email}`,
    '',
  ].join('\r\n');
  return dkimSign(Buffer.concat([Buffer.from(head), raw]), { domain: box.domain, selector: box.selector, privateKey: box.privateKey });
}

/** RFC 3834 §3: an auto-reply names what it answers and says that a program sent it. */
export async function autoReplyMime(box: Mailbox, to: string, original: ParsedContent, reply: { subject: string; body: string }, now: Date): Promise<Buffer> {
  const subject = reply.subject.trim() || `Auto: ${original.subject}`.slice(0, 998);
  const references = `${original.references} ${original.messageId}`.trim();
  const raw = await composeMime({
    from: { name: box.name, address: box.email }, to, subject, text: reply.body,
    messageId: `<${randomBytes(16).toString('hex')}@${box.domain}>`, date: now,
    inReplyTo: original.messageId || undefined, references: references || undefined,
    headers: { 'Auto-Submitted': 'auto-replied' },
  });
  return dkimSign(raw, { domain: box.domain, selector: box.selector, privateKey: box.privateKey });
}
