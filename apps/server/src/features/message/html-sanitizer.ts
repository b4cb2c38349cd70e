import sanitizeHtml from 'sanitize-html';
import { MAIL_SCOPE, sanitizeMailCss, styleSheetsOf } from './mail-css.js';

// Server-side sanitising of mail HTML (DESIGN.md security rules). The result is
// also shown in a sandboxed, script-less iframe; this is the first of two walls.

// A backslash is refused too: a CSS escape spells url( as \\75 rl( past any pattern.
const SAFE_CSS_VALUE = /^(?!.*(?:url\s*\(|expression\s*\(|javascript:|vbscript:|@import|behavior\s*:|-moz-binding|image-set\s*\(|\\)).*$/i;
const STYLE_PROPS = [
  'color', 'background-color', 'font', 'font-family', 'font-size', 'font-style', 'font-weight', 'line-height',
  'text-align', 'text-decoration', 'text-indent', 'text-transform', 'vertical-align', 'white-space', 'word-break',
  'letter-spacing', 'margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left',
  'padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left',
  'border', 'border-top', 'border-right', 'border-bottom', 'border-left', 'border-color', 'border-style', 'border-width',
  'border-radius', 'border-collapse', 'border-spacing', 'width', 'max-width', 'min-width', 'height', 'max-height',
  'display', 'float', 'clear', 'list-style-type', 'table-layout', 'direction', 'overflow',
  // Issue 14: what newsletters lay themselves out with. Backgrounds without url() (refused above).
  'background', 'min-height', 'box-sizing', 'opacity', 'visibility', 'text-shadow', 'box-shadow', 'border-top-left-radius',
  'border-top-right-radius', 'border-bottom-left-radius', 'border-bottom-right-radius', 'overflow-x', 'overflow-y', 'mso-hide',
  'top', 'right', 'bottom', 'left', 'z-index',
];
const allowedStyles: Record<string, RegExp[]> = {
  ...Object.fromEntries(STYLE_PROPS.map((p) => [p, [SAFE_CSS_VALUE]])),
  // Fixed and sticky boxes would lie over the reading view wherever it scrolls (mail-css.ts).
  position: [/^(?:static|relative|absolute)$/i],
};

const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$/i;

export interface SanitizedHtml {
  html: string;
  /** Remote image URLs held back (as data-mw-src) until the reader allows them. */
  remoteImages: string[];
}

export interface SanitizeOptions {
  /**
   * Keep the mail's <style> sheets, cleaned and scoped to the reading view's wrapper
   * (mail-css.ts). Only for received mail shown in its frame; editors and signatures
   * never take a sheet.
   */
  keepStyles?: boolean;
}

export function sanitizeMailHtml(input: string, opts: SanitizeOptions = {}): SanitizedHtml {
  const remoteImages: string[] = [];
  const html = sanitizeHtml(input, {
    allowedTags: [
      'a', 'abbr', 'b', 'big', 'blockquote', 'br', 'caption', 'center', 'cite', 'code', 'col', 'colgroup', 'dd', 'del', 'div', 'dl', 'dt',
      'em', 'font', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre', 'q', 's', 'small',
      'span', 'strike', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'tt', 'u', 'ul', 'wbr',
    ],
    allowedAttributes: {
      '*': ['style', 'align', 'valign', 'dir', 'title', 'width', 'height', 'bgcolor', 'class'],
      a: ['href', 'name', 'target', 'rel'],
      img: ['src', 'alt', 'data-mw-src', 'border'],
      font: ['color', 'face', 'size'],
      table: ['border', 'cellpadding', 'cellspacing'],
      td: ['colspan', 'rowspan', 'nowrap'],
      th: ['colspan', 'rowspan', 'nowrap'],
      ol: ['start', 'type'],
    },
    allowedStyles: { '*': allowedStyles },
    // data: URLs never survive in links; images may keep small raster data: URLs.
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'cid', 'data'] },
    allowProtocolRelative: false,
    // <script>, <style>, <textarea>… go with their content; forms, meta, svg and frames simply vanish.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'head', 'svg', 'math', 'template'],
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
      img: (tagName, attribs) => {
        const src = (attribs.src ?? '').trim();
        const out: Record<string, string> = { ...attribs };
        delete out.src;
        delete out['data-mw-src'];
        if (/^https?:\/\//i.test(src)) {
          remoteImages.push(src);
          out['data-mw-src'] = src;
        } else if (/^cid:/i.test(src) || DATA_IMAGE.test(src)) {
          out.src = src;
        }
        return { tagName, attribs: out };
      },
    },
  });
  const sheet = opts.keepStyles ? styleSheetsOf(input).map(sanitizeMailCss).filter(Boolean).join('\n') : '';
  return { html: sheet ? `<style data-mw-scope="${MAIL_SCOPE}">${sheet}</style>${html}` : html, remoteImages: [...new Set(remoteImages)] };
}

/**
 * Per-reader rewrite of the stored HTML: cid: images point at the message's inline
 * parts, and remote images go through our proxy when the reader allowed them.
 */
export function presentHtml(html: string, opts: { inlineUrl: (cid: string) => string; proxyUrl: (url: string) => string; showRemote: boolean }): string {
  const decode = (v: string) => v.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  let out = html.replace(/src="cid:([^"]*)"/gi, (_m, cid: string) => `src="${attr(opts.inlineUrl(decode(cid)))}"`);
  if (opts.showRemote) {
    out = out.replace(/data-mw-src="([^"]*)"/gi, (_m, url: string) => `src="${attr(opts.proxyUrl(decode(url)))}"`);
  }
  return out;
}
