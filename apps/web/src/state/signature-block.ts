// The signature inside a mail body is one marked block, so it can be found and swapped
// when the sender changes without touching anything the writer typed. The class survives
// the server's sanitiser (drafts reopen with it); the data attribute is for readers of the DOM.

export type SignaturePlace = 'new' | 'reply' | 'forward';

export const SIGNATURE_CLASS = 'mw-signature';
export const SIGNATURE_SELECTOR = `div.${SIGNATURE_CLASS}, div[data-mw-signature]`;

export function signatureBlock(html: string): string {
  return `<div class="${SIGNATURE_CLASS}" data-mw-signature="">${html}</div>`;
}

/**
 * The body with `signature` in place of its signature block, or with none when it is
 * null. A body without a block gets one where a writer expects it: under the text of a
 * new mail; in a reply or forward under the line being written, above the quoted mail
 * (the server's quote starts with that empty line).
 */
export function placeSignature(bodyHtml: string, signature: string | null, place: SignaturePlace): string {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${bodyHtml}</body>`, 'text/html');
  const body = doc.body;
  const existing = body.querySelector(SIGNATURE_SELECTOR);
  if (existing) {
    if (signature === null) existing.remove();
    else existing.outerHTML = signatureBlock(signature);
    return body.innerHTML;
  }
  if (signature === null) return bodyHtml;
  const holder = doc.createElement('div');
  holder.innerHTML = signatureBlock(signature);
  const block = holder.firstElementChild!;
  if (place !== 'new' && body.firstElementChild) {
    body.firstElementChild.after(block);
  } else {
    if (!body.firstElementChild) body.append(doc.createElement('p'));
    body.append(block);
  }
  return body.innerHTML;
}
