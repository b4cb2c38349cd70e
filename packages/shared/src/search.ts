// Search tokens, shared by indexing (server) and highlighting (client).
//
// PostgreSQL has no Chinese parser, so CJK text is cut into overlapping bigrams:
// "第三季度报告" → 第三 三季 季度 度报 报告. A query is cut the same way, so "季度",
// "报告" and "季度报告" all find it. Other scripts split into words; an e-mail address
// also stays whole, with its local part and domain as tokens of their own.

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/gu;
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
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

function cjkTokens(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) out.push(chars[0]!);
  for (let i = 0; i + 1 < chars.length; i += 1) out.push(chars[i]! + chars[i + 1]!);
}

/** Tokens of a text for the index, in order, with repeats. */
export function indexTokens(text: string): string[] {
  const out: string[] = [];
  let rest = normalise(text);
  rest = rest.replace(EMAIL, (addr) => {
    out.push(addr);
    const [local, domain] = addr.split('@') as [string, string];
    out.push(local, domain);
    return ` ${addr.replace(/[@.]/g, ' ')} `;
  });
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
