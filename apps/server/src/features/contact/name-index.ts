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
