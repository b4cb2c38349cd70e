import sanitizeHtml from 'sanitize-html';
import { sanitizeMailHtml } from '../message/html-sanitizer.js';

/**
 * Signatures and templates are pasted into mail the user sends, so they get the
 * allowlist of incoming mail (no scripts, handlers, forms, frames, CSS that loads) and
 * then lose every image that would be fetched from somewhere: a remote image in a
 * signature is a read beacon on every mail it goes out with, and a cid: or relative
 * image names a part that a signature does not carry. Small raster `data:` images stay:
 * they are bytes inside the mail and call no one (the byte limit keeps them small).
 */
export function sanitizeRichHtml(input: string): { html: string; removedImages: number } {
  let removedImages = 0;
  const first = sanitizeMailHtml(input).html;
  const html = sanitizeHtml(first, {
    // The first pass already applied the tag allowlist (no <style>/<script> survive it).
    allowedTags: false,
    allowVulnerableTags: true,
    allowedAttributes: false,
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['data'] },
    allowProtocolRelative: false,
    exclusiveFilter: (frame) => {
      if (frame.tag !== 'img') return false;
      const keep = /^data:image\//i.test(frame.attribs.src ?? '');
      if (!keep) removedImages += 1;
      return !keep;
    },
    transformTags: {
      // The mail sanitiser parks remote images in data-mw-src for readers; here they go.
      img: (tagName, attribs) => {
        const { 'data-mw-src': _parked, ...rest } = attribs;
        return { tagName, attribs: rest };
      },
    },
  });
  return { html: html.trim(), removedImages };
}

export const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');
