import { DomUtils, parseDocument } from 'htmlparser2';

type Node = Parameters<typeof DomUtils.removeElement>[0];

// write/load starts a forwarded original with a "---------- Forwarded message ----------" line.
const FORWARD_MARK = /^-{6,}/;

/**
 * The words the writer typed in a compose body, the same rule as the client's
 * (apps/web/src/state/compose-rules.ts `ownText`): a signature, each quoted block with its
 * "On …, X wrote:" line, and a forwarded original are not the writer's. Spec §5: a reply of
 * nothing but those is empty, and the server refuses it too, not only the client.
 */
export function ownText(html: string): string {
  const doc = parseDocument(html);
  const isElement = (n: Node): n is Node & { name: string; attribs: Record<string, string> } => DomUtils.isTag(n as never);
  const all = (test: (n: Node & { name: string; attribs: Record<string, string> }) => boolean) =>
    DomUtils.filter((n) => isElement(n as Node) && test(n as never), doc.children, true) as Node[];
  for (const s of all((e) => e.name === 'div' && (/\bmw-signature\b/.test(e.attribs.class ?? '') || 'data-mw-signature' in e.attribs))) DomUtils.removeElement(s);
  for (const quoted of all((e) => e.name === 'blockquote')) {
    if (!quoted.parent) continue;
    const intro = DomUtils.prevElementSibling(quoted as never);
    if (intro && /[:：]\s*$/.test(DomUtils.textContent(intro))) DomUtils.removeElement(intro);
    DomUtils.removeElement(quoted);
  }
  const body = all((e) => e.name === 'body')[0];
  const blocks = (body ? DomUtils.getChildren(body as never) : doc.children).filter((n) => isElement(n as Node)) as Node[];
  const mark = blocks.findIndex((b) => FORWARD_MARK.test(DomUtils.textContent(b).trim()));
  if (mark >= 0) for (const b of blocks.slice(mark)) DomUtils.removeElement(b);
  return DomUtils.textContent(doc.children);
}

/** A reply with no words of the writer's own and no picture of their own (spec §5). */
export function emptyReply(html: string, text: string): boolean {
  const own = html ? ownText(html) : text.split('\n').filter((l) => !l.startsWith('>')).join('\n');
  const ownPicture = /<img\b/i.test(html.replace(/<blockquote[\s\S]*<\/blockquote>/gi, ''));
  return own.trim() === '' && !ownPicture;
}
