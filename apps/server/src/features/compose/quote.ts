import { buildQuote, type Address, type ComposeMode } from '@mailwing/shared';
import { presentHtml } from '../message/html-sanitizer.js';
import { textToHtml } from './compose-html.js';

interface Original {
  id: number; subject: string; html: string; text_body: string; from_name: string; from_address: string;
  to_list: Address[]; cc_list: Address[]; sent_at: Date | null; received_at: Date;
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

  /** The subject and quote: the rule is shared with the client's offline compose (compose-prefill.ts). */
  build(o: Original, mode: Exclude<ComposeMode, 'edit'>, opts: { lang: 'zh' | 'en'; tz: number; token: string }): { subject: string; html: string } {
    return buildQuote({
      subject: o.subject, from: { name: o.from_name, address: o.from_address }, to: o.to_list, cc: o.cc_list,
      date: (o.sent_at ?? o.received_at).getTime(), body: editorHtml(o, opts.token, false),
    }, mode, opts);
  },
};
