/** A run of text, marked when it matches one of the search terms. */
export interface TextPart {
  text: string;
  hit: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Splits text into runs that do and do not match any term, case-insensitively.
 * Longer terms win where terms overlap ("季度报告" before "季度"), and adjacent
 * matches stay separate runs, which renders the same.
 */
export function splitHighlights(text: string, terms: readonly string[]): TextPart[] {
  const words = [...new Set(terms.map((t) => t.trim()).filter(Boolean))].sort((a, b) => b.length - a.length);
  if (!text) return [];
  if (words.length === 0) return [{ text, hit: false }];
  const pattern = new RegExp(words.map(escape).join('|'), 'giu');
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    if (match[0] === '') continue;
    if (start > last) parts.push({ text: text.slice(last, start), hit: false });
    parts.push({ text: match[0], hit: true });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), hit: false });
  return parts;
}
