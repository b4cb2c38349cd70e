import { Parser } from 'htmlparser2';
import postcss, { type AtRule, type ChildNode, type Declaration, type Root, type Rule } from 'postcss';

// A mail's own style sheets (issue 14, scope 1). Newsletters lay themselves out with
// <style> blocks; dropping them broke their layout. They are kept, but only what styles:
// nothing that loads (url(), @import, @font-face, image-set()), nothing that executes
// (expression(), behavior, -moz-binding), nothing that lifts content out of the flow
// over the reading view (position: fixed/sticky), and every selector is scoped to the
// mail's wrapper, so html/body/:root rules style the mail, never the frame around it.

/** The class of the element the reading view wraps a mail in (apps/web mail-body.tsx). */
export const MAIL_SCOPE = 'mw-mail';

/** Any of these in a value, after CSS escapes are refused, and the declaration goes. */
const UNSAFE_VALUE = /url\s*\(|image-set\s*\(|image\s*\(|cross-fade\s*\(|element\s*\(|expression\s*\(|javascript:|vbscript:|@import|-moz-binding|behavior|[<\\]/i;
// Properties whose values name resources (when not url(), then a bare string some engines fetch) or run code.
const UNSAFE_PROPERTY = /^(?:behavior|-moz-binding|-ms-behavior|-ms-filter|src|mask.*|-webkit-mask.*|list-style-image|border-image.*|-webkit-border-image|shape-outside|offset-path)$/i;
/** At-rules a layout needs; all others (@import, @font-face, @namespace, @page, @keyframes…) go. */
const KEPT_AT_RULES = new Set(['media', 'supports']);

/** True when a declaration may stay: inline style attributes use the same test (html-sanitizer.ts). */
export function safeDeclaration(property: string, value: string): boolean {
  const prop = property.trim().toLowerCase();
  if (UNSAFE_PROPERTY.test(prop) || UNSAFE_VALUE.test(value)) return false;
  // Fixed and sticky boxes cover the reading view wherever it scrolls: a fake
  // login form laid over the mail. Relative and absolute stay inside the wrapper.
  if (prop === 'position' && !/^\s*(?:static|relative|absolute)\s*(?:!important)?\s*$/i.test(value)) return false;
  return true;
}

function scopeSelector(selector: string): string | null {
  const s = selector.trim();
  if (s === '' || s.includes('\\')) return null;
  // html, body and :root mean the mail's own page: they become the wrapper.
  const root = /^(?::root|html)(?:\s*>?\s*body)?(?![\w-])|^body(?![\w-])/i.exec(s);
  if (root) return `.${MAIL_SCOPE}${s.slice(root[0].length)}`;
  return `.${MAIL_SCOPE} ${s}`;
}

function clean(container: Root | AtRule): void {
  container.each((node: ChildNode) => {
    if (node.type === 'comment') node.remove();
    else if (node.type === 'atrule') {
      if (!KEPT_AT_RULES.has(node.name.toLowerCase()) || UNSAFE_VALUE.test(node.params) || !node.nodes) node.remove();
      else clean(node);
    } else if (node.type === 'rule') {
      cleanRule(node);
    } else node.remove();
  });
  if (container.type === 'atrule' && (container.nodes?.length ?? 0) === 0) container.remove();
}

function cleanRule(rule: Rule): void {
  const selectors = rule.selectors.map(scopeSelector);
  if (selectors.some((s) => s === null)) {
    rule.remove();
    return;
  }
  rule.selectors = selectors as string[];
  rule.each((node) => {
    if (node.type !== 'decl' || !safeDeclaration((node as Declaration).prop, (node as Declaration).value)) node.remove();
  });
  if ((rule.nodes?.length ?? 0) === 0) rule.remove();
}

/** One style sheet, cleaned and scoped; '' when nothing of it can be kept or it does not parse. */
export function sanitizeMailCss(css: string): string {
  let root: Root;
  try {
    root = postcss.parse(css);
  } catch {
    return '';
  }
  clean(root);
  // `<` was refused in values and selectors, so the sheet cannot close its <style> element.
  return root.toString().replace(/</g, '\\3c ').trim();
}

/** The text of every <style> element of a mail, in order, parsed as a browser would. */
export function styleSheetsOf(html: string): string[] {
  const sheets: string[] = [];
  let inStyle = 0;
  let current = '';
  const parser = new Parser({
    onopentagname(name) {
      if (name === 'style') inStyle += 1;
    },
    ontext(text) {
      if (inStyle > 0) current += text;
    },
    onclosetag(name) {
      if (name === 'style' && inStyle > 0) {
        inStyle -= 1;
        sheets.push(current);
        current = '';
      }
    },
  }, { decodeEntities: false, lowerCaseTags: true });
  parser.write(html);
  parser.end();
  return sheets;
}
