import sanitizeHtml from 'sanitize-html';
import { sanitizeMailHtml } from '../message/html-sanitizer.js';

/** An image in the editor that must travel inside the mail: an upload, or an inline part of one of the writer's mails. */
export type InlineRef = { kind: 'upload'; id: number; cid: string } | { kind: 'part'; mailId: number; partCid: string; cid: string };

const UPLOAD_SRC = /\/h5\/write\/file\?(?:[^"]*&)?id=(\d{1,15})/;
const PART_SRC = /\/h5\/read\/inline\?(?:[^"]*&)?mid=(\d{1,15})&cid=([^&"]+)/;

/**
 * Cleans the HTML the compose page sends and turns the editor's image URLs (which
 * carry the session token) into cid: references to parts the mail will carry.
 * Anything else the client sends passes the same allowlist as incoming mail;
 * remote images keep their URLs, since the recipient's reader decides about them.
 */
export function prepareOutgoingHtml(input: string, keepCidsOf?: number): { html: string; refs: InlineRef[] } {
  const refs: InlineRef[] = [];
  const cidFor = (key: string, make: (cid: string) => InlineRef) => {
    const found = refs.find((r) => (r.kind === 'upload' ? `u${r.id}` : `p${r.mailId}/${r.partCid}`) === key);
    if (found) return found.cid;
    const ref = make(`${key.replace(/[^\w.-]/g, '_')}.${refs.length}@mailwing`);
    refs.push(ref);
    return ref.cid;
  };
  // First the editor's own URLs become cid: references (the shared sanitiser would drop relative srcs)…
  const rewritten = sanitizeHtml(input, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    // The cid: URLs made below must survive this pass; the next one applies the real scheme rules.
    allowedSchemes: ['http', 'https', 'cid', 'data', 'mailto', 'tel'],
    transformTags: {
      img: (tagName, attribs) => {
        const src = decodeEntities(attribs.src ?? '');
        const upload = UPLOAD_SRC.exec(src);
        const part = PART_SRC.exec(src);
        if (upload) return { tagName, attribs: { ...attribs, src: `cid:${cidFor(`u${upload[1]}`, (cid) => ({ kind: 'upload', id: Number(upload[1]), cid }))}` } };
        if (part) {
          const partCid = decodeURIComponent(part[2]!);
          const mailId = Number(part[1]);
          const make = (cid: string): InlineRef => ({ kind: 'part', mailId, partCid, cid: mailId === keepCidsOf ? partCid : cid });
          return { tagName, attribs: { ...attribs, src: `cid:${cidFor(`p${part[1]}/${partCid}`, make)}` } };
        }
        return { tagName, attribs };
      },
    },
  });
  // …then the allowlist of incoming mail removes scripts, handlers and unsafe CSS. It parks
  // remote images in data-mw-src for readers; an outgoing mail keeps them as they were.
  const html = sanitizeMailHtml(rewritten).html.replace(/<img\b([^>]*?)\sdata-mw-src=/gi, '<img$1 src=');
  return { html, refs };
}

function decodeEntities(v: string): string {
  return v.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'");
}

export const escapeHtml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain text for the text/plain alternative of an HTML mail. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li|tr|h\d|blockquote)>/gi, '\n').replace(/<li\b[^>]*>/gi, '- ')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&#x27;/g, "'").replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n').trim();
}

export function textToHtml(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}
