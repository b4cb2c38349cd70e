import type { Address, ComposeMode } from '@mailwing/shared';
import { presentHtml } from '../message/html-sanitizer.js';
import { escapeHtml, textToHtml } from './compose-html.js';

interface Original {
  id: number; subject: string; html: string; text_body: string; from_name: string; from_address: string;
  to_list: Address[]; cc_list: Address[]; sent_at: Date | null; received_at: Date;
}

const WORDS = {
  en: { wrote: (date: string, who: string) => `On ${date}, ${who} wrote:`, fwd: '---------- Forwarded message ----------', from: 'From', date: 'Date', subject: 'Subject', to: 'To', cc: 'Cc' },
  zh: { wrote: (date: string, who: string) => `${date}，${who} 写道：`, fwd: '---------- 转发的邮件 ----------', from: '发件人', date: '日期', subject: '主题', to: '收件人', cc: '抄送' },
};

const who = (a: Address) => escapeHtml(a.name ? `${a.name} <${a.address}>` : a.address);

/** "2026-11-22 14:05" in the writer's time zone (minutes east of UTC). */
function formatDate(d: Date, tzMinutes: number): string {
  const local = new Date(d.getTime() + tzMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${local.getUTCFullYear()}-${p(local.getUTCMonth() + 1)}-${p(local.getUTCDate())} ${p(local.getUTCHours())}:${p(local.getUTCMinutes())}`;
}

/**
 * The editor's view of stored mail HTML. Inline images point at the mail's parts
 * (the server turns those URLs back into cid: parts on send). In a quote, remote
 * images are left out: the editor would load them straight from their senders.
 */
function editorHtml(o: Original, token: string, keepRemote: boolean): string {
  if (!o.html) return textToHtml(o.text_body);
  const t = encodeURIComponent(token);
  const html = presentHtml(o.html, {
    inlineUrl: (cid) => `/h5/read/inline?mid=${o.id}&cid=${encodeURIComponent(cid)}&t=${t}`,
    proxyUrl: (url) => url,
    showRemote: keepRemote,
  });
  return keepRemote ? html : html.replace(/<img\b[^>]*\sdata-mw-src="[^"]*"[^>]*>/gi, '');
}

export const quoteFor = {
  /** A draft's own HTML, to continue writing it. */
  ownHtml: (o: Original, token: string) => editorHtml(o, token, true),

  build(o: Original, mode: Exclude<ComposeMode, 'edit'>, opts: { lang: 'zh' | 'en'; tz: number; token: string }): { subject: string; html: string } {
    const w = WORDS[opts.lang];
    const date = formatDate(o.sent_at ?? o.received_at, opts.tz);
    const from = who({ name: o.from_name, address: o.from_address });
    const body = editorHtml(o, opts.token, false);
    if (mode === 'forward') {
      const lines = [
        w.fwd,
        `${w.from}: ${from}`,
        `${w.date}: ${date}`,
        `${w.subject}: ${escapeHtml(o.subject)}`,
        `${w.to}: ${o.to_list.map(who).join(', ')}`,
        ...(o.cc_list.length > 0 ? [`${w.cc}: ${o.cc_list.map(who).join(', ')}`] : []),
      ];
      return {
        subject: /^\s*(fw|fwd|转发)\s*[:：]/i.test(o.subject) ? o.subject : `Fw: ${o.subject}`,
        html: `<p></p><p></p><p>${lines.join('<br>')}</p>${body}`,
      };
    }
    return {
      subject: /^\s*(re|回复|答复)\s*[:：]/i.test(o.subject) ? o.subject : `Re: ${o.subject}`,
      html: `<p></p><p></p><p>${w.wrote(date, from)}</p><blockquote>${body}</blockquote>`,
    };
  },
};
