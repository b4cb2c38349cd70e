import { createHash } from 'node:crypto';
import type { Address } from '@mailwing/shared';

/**
 * Who a mail is between, as one short key: the sorted set of From, To and Cc addresses.
 * A reply swaps From and To but keeps the set, so a reply without header links still
 * matches its conversation by subject; the same subject between other people does not.
 * Hashed so the index stays small whatever the size of a Cc list.
 */
export function peopleKey(p: { from: Address; to: Address[]; cc: Address[] }): string {
  const set = new Set<string>();
  for (const a of [p.from, ...p.to, ...p.cc]) if (a.address) set.add(a.address.trim().toLowerCase());
  if (set.size === 0) return '';
  return createHash('sha256').update([...set].sort().join('\n')).digest('hex').slice(0, 24);
}
