import sanitizeHtml from 'sanitize-html';
import { convert } from 'html-to-text';
import { sanitizeMailHtml } from '../message/html-sanitizer.js';

/**
 * A plain note's HTML gets the mail allowlist (no scripts, handlers, forms, frames, CSS
 * that loads), then loses every image that would be fetched from somewhere: a note's
 * images are small data: images inside it (so a locked note's images are encrypted with
 * it, which blob-stored images would not be), and a remote one would be a beacon.
 */
export function sanitizeNoteHtml(input: string): string {
  const first = sanitizeMailHtml(input).html;
  return sanitizeHtml(first, {
    allowedTags: false,
    allowVulnerableTags: true,
    allowedAttributes: false,
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['data'] },
    allowProtocolRelative: false,
    exclusiveFilter: (frame) => frame.tag === 'img' && !/^data:image\//i.test(frame.attribs.src ?? ''),
    transformTags: {
      img: (tagName, attribs) => {
        const { 'data-mw-src': _parked, ...rest } = attribs;
        return { tagName, attribs: rest };
      },
    },
  }).trim();
}

/** The words of a note for search and the list's snippet (images and links' targets left out). */
export function noteText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [{ selector: 'img', format: 'skip' }, { selector: 'a', options: { ignoreHref: true } }],
  }).replace(/\s+/g, ' ').trim().slice(0, 100_000);
}
