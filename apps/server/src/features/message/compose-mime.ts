import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';

const PRIORITY_HEADERS: Record<string, Record<string, string>> = {
  high: { 'X-Priority': '1 (Highest)', 'X-MSMail-Priority': 'High', Importance: 'High' },
  low: { 'X-Priority': '5 (Lowest)', 'X-MSMail-Priority': 'Low', Importance: 'Low' },
};

/**
 * Builds a raw RFC 5322 message with nodemailer's composer (MIME is never hand-built).
 * The composer, unlike nodemailer's transports, ignores `priority`, so its headers are set here.
 */
export function composeMime(options: Mail.Options): Promise<Buffer> {
  const extra = options.priority ? PRIORITY_HEADERS[options.priority] : undefined;
  const headers = extra ? { ...extra, ...(options.headers as Record<string, string> | undefined) } : options.headers;
  return new MailComposer({ ...options, headers }).compile().build();
}
