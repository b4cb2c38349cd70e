// Search tokens, shared by indexing (server) and highlighting (client).
//
// PostgreSQL has no Chinese parser, so CJK text is cut into overlapping bigrams:
// "第三季度报告" → 第三 三季 季度 度报 报告. A query is cut the same way, so "季度",
// "报告" and "季度报告" all find it. Other scripts split into words; an e-mail address
// also stays whole, with its local part and domain as tokens of their own.

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/gu;
// An address, tried only where an '@' makes one possible (replaceEmails).
const EMAIL_AT = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/uy;
const LOCAL_CHAR = /^[\p{L}\p{N}._%+-]$/u;
const WORD = /[\p{L}\p{N}]+/gu;
const MAX_TOKEN = 64;

export interface QueryToken {
  token: string;
  /** Matched as a prefix: the last word being typed, and a single CJK character. */
  prefix: boolean;
}

function normalise(text: string): string {
  // NFKC folds full-width letters and digits (ＡＢＣ１２３) into ASCII.
  return text.normalize('NFKC').toLowerCase();
}

/**
 * What `text.replace(/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu, fn)`
 * returns, without running the pattern from every position of a mail body (that scan
 * was a tenth of a parse worker's time): every address holds exactly one '@', and the
 * leftmost match for an '@' starts where the run of local-part characters before it
 * starts (not before the end of the previous match, where the global scan resumes).
 * search.test.ts compares the two over many generated texts.
 */
export function replaceEmails(text: string, fn: (addr: string) => string): string {
  let at = text.indexOf('@');
  if (at < 0) return text;
  let out = '';
  let last = 0;
  while (at >= 0) {
    let start = at;
    while (start > last) {
      // One code point back: a low surrogate after a high one is one character, as the 'u' flag reads it.
      let prev = start - 1;
      const c = text.charCodeAt(prev);
      if (c >= 0xdc00 && c <= 0xdfff && prev > last) {
        const h = text.charCodeAt(prev - 1);
        if (h >= 0xd800 && h <= 0xdbff) prev -= 1;
      }
      if (!LOCAL_CHAR.test(text.slice(prev, start))) break;
      start = prev;
    }
    EMAIL_AT.lastIndex = start;
    const m = start < at ? EMAIL_AT.exec(text) : null;
    if (!m) {
      at = text.indexOf('@', at + 1);
      continue;
    }
    out += text.slice(last, start) + fn(m[0]);
    last = start + m[0].length;
    at = text.indexOf('@', last);
  }
  return last === 0 ? text : out + text.slice(last);
}

function cjkTokens(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) out.push(chars[0]!);
  for (let i = 0; i + 1 < chars.length; i += 1) out.push(chars[i]! + chars[i + 1]!);
}

/** Tokens of a text for the index, in order, with repeats. */
export function indexTokens(text: string): string[] {
  const out: string[] = [];
  let rest = normalise(text);
  rest = replaceEmails(rest, (addr) => {
    out.push(addr);
    const [local, domain] = addr.split('@') as [string, string];
    out.push(local, domain);
    return ` ${addr.replace(/[@.]/g, ' ')} `;
  });
  if (!CJK.test(rest)) {
    // No CJK anywhere (most mail): every word is a token, without asking each word.
    for (const word of rest.match(WORD) ?? []) if (word.length <= MAX_TOKEN) out.push(word);
    return out.filter((t) => t.length <= MAX_TOKEN);
  }
  for (const m of rest.matchAll(WORD)) {
    const word = m[0];
    if (!CJK.test(word)) {
      if (word.length <= MAX_TOKEN) out.push(word);
      continue;
    }
    // A word that mixes scripts ("q3季度report"): CJK runs as bigrams, the rest as words.
    let last = 0;
    for (const run of word.matchAll(CJK_RUN)) {
      const before = word.slice(last, run.index);
      if (before) out.push(before);
      cjkTokens(run[0], out);
      last = run.index + run[0].length;
    }
    if (last < word.length) out.push(word.slice(last));
  }
  return out.filter((t) => t.length <= MAX_TOKEN);
}

/** The distinct tokens of a search query; every one must match (AND). */
export function queryTokens(query: string): QueryToken[] {
  const tokens = indexTokens(query);
  const seen = new Set<string>();
  const out: QueryToken[] = [];
  tokens.forEach((token, i) => {
    if (seen.has(token)) return;
    seen.add(token);
    const singleCjk = [...token].length === 1 && CJK.test(token);
    out.push({ token, prefix: singleCjk || (i === tokens.length - 1 && !CJK.test(token) && !token.includes('@')) });
  });
  return out;
}

/** The words of a query as typed, for highlighting matches in a result. */
export function highlightTerms(query: string): string[] {
  return [...new Set(normalise(query).split(/[\s,;，；]+/).filter(Boolean))];
}
