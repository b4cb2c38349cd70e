import { pinyin } from 'pinyin-pro';

/**
 * Where a name goes in an A–Z index: Chinese names by the pinyin of their
 * characters (李雷 → L, "li lei"), others by their first letter; digits and
 * symbols under '#'. The sort key orders names within and across letters.
 */
export function nameIndex(name: string): { initial: string; sortKey: string } {
  // surname: 'head' reads the first character as a family name (曾 → zeng, 单 → shan).
  const syllables = pinyin(name.trim(), { toneType: 'none', type: 'array', nonZh: 'consecutive', surname: 'head' });
  const sortKey = syllables.join(' ').normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
  const first = sortKey.charAt(0).toUpperCase();
  return { initial: /[A-Z]/.test(first) ? first : '#', sortKey: /[A-Z]/.test(first) ? sortKey : `~${sortKey}` };
}

/**
 * What a pinyin search can type for a name: its full pinyin without spaces
 * (张伟 → "zhangwei") and its initials ("zw"). Empty for names without Chinese.
 */
export function pinyinForms(name: string): { full: string; initials: string } {
  if (!/[\u3400-\u9fff]/.test(name)) return { full: '', initials: '' };
  const words = nameIndex(name).sortKey.replace(/^~/, '').split(/\s+/).filter(Boolean);
  return { full: words.join(''), initials: words.map((w) => w.charAt(0)).join('') };
}

/** A search text that can only be pinyin (letters and spaces): "zw", "zhang wei". */
export function pinyinQuery(q: string): string | null {
  const text = q.trim().toLowerCase();
  return /^[a-z][a-z\s]*$/.test(text) ? text.replace(/\s+/g, '') : null;
}

// Names repeat across searches; their pinyin is worked out once (bounded, so a huge
// directory cannot grow it without end).
const formsCache = new Map<string, { full: string; initials: string }>();

/** True when the pinyin query finds the name by its initials or full pinyin. */
export function matchesPinyin(name: string, query: string): boolean {
  let forms = formsCache.get(name);
  if (!forms) {
    forms = pinyinForms(name);
    if (formsCache.size >= 50_000) formsCache.clear();
    formsCache.set(name, forms);
  }
  return Boolean(forms.full) && (forms.initials.includes(query) || forms.full.includes(query));
}
