// Quoted text folding for the stacked conversation (issue 14, scope 2). Each mail of a
// conversation repeats the ones before it; the stack shows what is new and folds the
// quote behind a toggle. This only chooses how much of the server-sanitised HTML goes into
// the same sandboxed frame (mail-body.tsx): nothing here runs or loads mail content.
// DOMParser builds an inert document: no scripts run and no images load in it.

/** Lines that start a quote in plain text and in HTML text: "On … wrote:", Outlook's and Foxmail's separators. */
const MARKERS = [
  /^\s*-{2,}\s*(原始邮件|原始郵件|Original Message|Forwarded message|转发的邮件)\s*-{2,}/i,
  /^\s*On\s.{3,300}\swrote:\s*$/i,
  /^\s*在?\s*.{3,300}\s*写道\s*[:：]\s*$/,
  /^\s*(From|发件人)\s*[:：].+$/i,
];

function isMarker(line: string): boolean {
  return MARKERS.some((re) => re.test(line));
}

/** Plain text: new text, and the folded rest ('' when there is none, or when it is all quote). */
export function splitQuotedText(text: string): { main: string; quoted: string } {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((line, i) => isMarker(line) || (line.startsWith('>') && (i + 1 >= lines.length || lines.slice(i).every((l) => l.startsWith('>') || l.trim() === ''))));
  if (at <= 0) return { main: text, quoted: '' };
  const main = lines.slice(0, at).join('\n').trimEnd();
  if (!main.trim()) return { main: text, quoted: '' };
  return { main, quoted: lines.slice(at).join('\n') };
}

// Containers mail programs put quotes in: Gmail, Outlook's reply header, Apple Mail, QQ/Foxmail, ours (blockquote).
const QUOTE_SELECTOR = 'blockquote, .gmail_quote, #divRplyFwdMsg, #appendonsend, [type="cite"], #isReplyContent, .qmbox';

/** The first element that starts a quote: a quote container, or a block whose own text is a marker line. */
function quoteStart(root: HTMLElement): Element | null {
  let found: Element | null = root.querySelector(QUOTE_SELECTOR);
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (found && found.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING) break;
    const block = node.parentElement?.closest('p, div, span, font, b, hr, td') ?? node.parentElement;
    if (block && block !== root && isMarker((block.textContent ?? '').trim())) {
      found = block;
      break;
    }
  }
  return found;
}

/** Removes `node` and everything after it, up to `root`. */
function cutFrom(root: HTMLElement, node: Element): void {
  for (let n: Node | null = node; n && n !== root; n = n.parentNode) {
    while (n.nextSibling) n.parentNode!.removeChild(n.nextSibling);
  }
  node.remove();
}

/** HTML: the part before the quote, or null when there is no quote (or nothing but quote). */
export function newPartOfHtml(html: string): string | null {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const root = doc.body;
  const start = quoteStart(root);
  if (!start) return null;
  cutFrom(root, start);
  const text = (root.textContent ?? '').replace(/\s+/g, '');
  if (!text && !root.querySelector('img')) return null;
  return root.innerHTML;
}
