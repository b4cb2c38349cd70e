import type { Address, ComposeData, Mail } from './schemas/index.js';

// The rule for what a reply or forward starts with (issue 15, scope 3): the subject's
// "Re:"/"Fw:", the quote's header line in the writer's language and time zone, and who a
// reply goes to. One owner for both callers: the server's write/load builds its answer with
// these, and the client's offline layer answers write/load from a kept mail with the same
// functions, so a reply written offline starts exactly as one written online.

export type PrefillMode = 'reply' | 'replyAll' | 'forward';

export const QUOTE_WORDS = {
  en: { wrote: (date: string, who: string) => `On ${date}, ${who} wrote:`, fwd: '---------- Forwarded message ----------', from: 'From', date: 'Date', subject: 'Subject', to: 'To', cc: 'Cc' },
  zh: { wrote: (date: string, who: string) => `${date}，${who} 写道：`, fwd: '---------- 转发的邮件 ----------', from: '发件人', date: '日期', subject: '主题', to: '收件人', cc: '抄送' },
} as const;

export const escapeHtmlText = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A plain-text body as editor HTML. */
export const plainTextToHtml = (text: string) => escapeHtmlText(text).replace(/\r?\n/g, '<br>');

const who = (a: Address) => escapeHtmlText(a.name ? `${a.name} <${a.address}>` : a.address);

/** "2026-11-22 14:05" in the writer's time zone (minutes east of UTC). */
export function quoteDate(ms: number, tzMinutes: number): string {
  const local = new Date(ms + tzMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${local.getUTCFullYear()}-${p(local.getUTCMonth() + 1)}-${p(local.getUTCDate())} ${p(local.getUTCHours())}:${p(local.getUTCMinutes())}`;
}

/** What the quote needs of the original; `body` is already the editor's HTML of its content. */
export interface QuoteSource {
  subject: string;
  from: Address;
  to: Address[];
  cc: Address[];
  /** When it was sent (or received), ms. */
  date: number;
  body: string;
}

export function buildQuote(o: QuoteSource, mode: PrefillMode, opts: { lang: 'zh' | 'en'; tz: number }): { subject: string; html: string } {
  const w = QUOTE_WORDS[opts.lang];
  const date = quoteDate(o.date, opts.tz);
  const from = who(o.from);
  if (mode === 'forward') {
    const lines = [
      w.fwd,
      `${w.from}: ${from}`,
      `${w.date}: ${date}`,
      `${w.subject}: ${escapeHtmlText(o.subject)}`,
      `${w.to}: ${o.to.map(who).join(', ')}`,
      ...(o.cc.length > 0 ? [`${w.cc}: ${o.cc.map(who).join(', ')}`] : []),
    ];
    return {
      subject: /^\s*(fw|fwd|转发)\s*[:：]/i.test(o.subject) ? o.subject : `Fw: ${o.subject}`,
      html: `<p></p><p></p><p>${lines.join('<br>')}</p>${o.body}`,
    };
  }
  return {
    subject: /^\s*(re|回复|答复)\s*[:：]/i.test(o.subject) ? o.subject : `Re: ${o.subject}`,
    html: `<p></p><p></p><p>${w.wrote(date, from)}</p><blockquote>${o.body}</blockquote>`,
  };
}

/** The first of each address, in order. */
export function dedupeAddresses<T extends { address: string }>(list: T[]): T[] {
  const seen = new Set<string>();
  return list.filter((a) => (seen.has(a.address) ? false : (seen.add(a.address), true)));
}

/**
 * Who a reply goes to. Replying to one's own sent mail goes to its recipients again, as mail
 * apps do; otherwise to the Reply-To, or the sender. Reply all adds the original's To and Cc
 * in Cc, without the writer and without those already in To. `self` in lower case.
 */
export function replyRecipients(
  o: { from: Address; replyTo: Address[]; to: Address[]; cc: Address[] },
  mode: 'reply' | 'replyAll',
  self: string,
): { to: Address[]; cc: Address[] } {
  const own = o.from.address === self;
  const answerTo = own ? o.to : (o.replyTo.length > 0 ? o.replyTo : [{ name: o.from.name, address: o.from.address }]);
  const to = dedupeAddresses(answerTo);
  const cc = mode === 'replyAll'
    ? dedupeAddresses([...o.to, ...o.cc]).filter((a) => a.address !== self && !to.some((t) => t.address === a.address))
    : [];
  return { to, cc };
}

/**
 * The editor's HTML of a mail's content for a quote, from the mail as read/index gave it: the
 * same as write/load makes from the stored mail. read/index already turned inline parts into
 * /h5/read/inline URLs (the editor keeps them, the server turns them back into cid: parts on
 * send); remote images, held back (data-mw-src) or shown through the proxy, are left out of a
 * quote, since the editor would load them straight from their senders.
 */
export function quoteBodyOfMail(mail: Pick<Mail, 'html' | 'text'>, token: string): string {
  if (!mail.html) return plainTextToHtml(mail.text);
  const t = encodeURIComponent(token);
  return mail.html
    .replace(/<img\b[^>]*\sdata-mw-src="[^"]*"[^>]*>/gi, '')
    .replace(/<img\b[^>]*\ssrc="\/h5\/read\/image\?[^"]*"[^>]*>/gi, '')
    // The kept URL carries the token it was read with; the quote carries the session's own.
    .replace(/(src="\/h5\/read\/inline\?[^"]*?&amp;t=)[^"&]*/gi, `$1${t}`);
}

/**
 * write/load's answer for a reply or forward, made from a mail as read/index gave it (issue 15:
 * the offline layer answers write/load from a kept mail with this). `self`: the writer's
 * address; `tz`: minutes east of UTC.
 */
export function prefillFromMail(mail: Mail, mode: PrefillMode, opts: { lang: 'zh' | 'en'; tz: number; self: string; token: string }): ComposeData {
  const quote = buildQuote({ subject: mail.subject, from: mail.from, to: mail.to, cc: mail.cc, date: mail.date * 1000, body: quoteBodyOfMail(mail, opts.token) }, mode, opts);
  const base = { bcc: [], subject: quote.subject, html: quote.html, urgent: false, sendAt: null, draftId: null };
  if (mode === 'forward') {
    // The original's own files (not its inline images), named as write/send takes them:
    // "<mail id>.<part index>". They stay on the server, so a queued forward sends them at replay.
    const attachments = mail.attachments
      .filter((a) => !a.inline && !a.id.endsWith('.9999'))
      .map((a) => ({ id: a.id, name: a.name, size: a.size, contentType: a.contentType }));
    return { ...base, to: [], cc: [], attachments, replyTo: null, forwardOf: mail.id };
  }
  const { to, cc } = replyRecipients(mail, mode, opts.self.trim().toLowerCase());
  return { ...base, to, cc, attachments: [], replyTo: mail.id, forwardOf: null };
}
