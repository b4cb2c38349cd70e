import { isIP } from 'node:net';

// Company block/allow lists (issue 17, scope 6): parsing patterns and finding the entry
// that decides. Pure, so the precedence is tested without a database.

export type PatternType = 'address' | 'domain' | 'ip';
export interface ListEntry { id: number; kind: 'block' | 'allow'; pattern: string; note: string; created_at: Date }

interface Cidr { bits: bigint; prefix: number; v6: boolean; entry: ListEntry }

/** The canonical spelling of a pattern, or null when it is none of address, *@domain, IP or CIDR. */
export function normalisePattern(input: string): { pattern: string; type: PatternType } | null {
  const p = input.trim().toLowerCase();
  const domain = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;
  if (p.startsWith('*@')) return domain.test(p.slice(2)) ? { pattern: p, type: 'domain' } : null;
  if (p.includes('@')) {
    const at = p.lastIndexOf('@');
    const local = p.slice(0, at);
    return local.length > 0 && local.length <= 64 && !/[\s<>,;]/.test(local) && domain.test(p.slice(at + 1)) ? { pattern: p, type: 'address' } : null;
  }
  const cidr = parseCidr(p);
  if (!cidr) return null;
  return { pattern: `${cidr.text}/${cidr.prefix}`.replace(/\/(32|128)$/, (m, n: string) => ((cidr.v6 ? n === '128' : n === '32') ? '' : m)), type: 'ip' };
}

function parseCidr(p: string): { text: string; bits: bigint; prefix: number; v6: boolean } | null {
  const [addr = '', len] = p.split('/');
  const ip = toBits(addr);
  if (!ip) return null;
  const max = ip.v6 ? 128 : 32;
  const prefix = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : -1;
  if (prefix < 0 || prefix > max) return null;
  const bits = mask(ip.bits, prefix, max);
  return { text: ip.v6 ? v6Text(bits) : v4Text(bits), bits, prefix, v6: ip.v6 };
}

const v4Text = (b: bigint) => [24n, 16n, 8n, 0n].map((n) => String((b >> n) & 255n)).join('.');
const v6Text = (b: bigint) => Array.from({ length: 8 }, (_, i) => ((b >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
const mask = (bits: bigint, prefix: number, max: number) => (prefix === 0 ? 0n : (bits >> BigInt(max - prefix)) << BigInt(max - prefix));

/** An IP as a number; IPv4-mapped IPv6 (what a dual-stack socket reports) counts as the IPv4 address. */
export function toBits(input: string): { bits: bigint; v6: boolean; text: string } | null {
  let a = input.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) a = mapped[1]!;
  const kind = isIP(a);
  if (kind === 4) {
    const parts = a.split('.').map(Number);
    return { bits: parts.reduce((n, x) => (n << 8n) | BigInt(x), 0n), v6: false, text: parts.join('.') };
  }
  if (kind !== 6) return null;
  // net.isIP has checked the syntax: expand '::' and an embedded IPv4 tail into eight groups.
  const toGroups = (part: string) => (part ? part.split(':') : []).flatMap((g) => {
    if (!g.includes('.')) return [g];
    const [w, x, y, z] = g.split('.').map(Number) as [number, number, number, number];
    return [((w << 8) | x).toString(16), ((y << 8) | z).toString(16)];
  });
  const gap = a.indexOf('::');
  const head = toGroups(gap < 0 ? a : a.slice(0, gap));
  const tail = gap < 0 ? [] : toGroups(a.slice(gap + 2));
  const groups = [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  return { bits: groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g || '0', 16)), 0n), v6: true, text: a };
}

/** One company's list, compiled for lookups that cost a few Map reads per message. */
export class CompiledList {
  private readonly addresses = new Map<string, ListEntry[]>();
  private readonly domains = new Map<string, ListEntry[]>();
  private readonly cidrs: Cidr[] = [];

  constructor(entries: ListEntry[]) {
    for (const e of entries) {
      if (e.pattern.startsWith('*@')) push(this.domains, e.pattern.slice(2), e);
      else if (e.pattern.includes('@')) push(this.addresses, e.pattern, e);
      else {
        const c = parseCidr(e.pattern);
        if (c) this.cidrs.push({ bits: c.bits, prefix: c.prefix, v6: c.v6, entry: e });
      }
    }
    // Longest prefix first, so the first hit is the most specific.
    this.cidrs.sort((a, b) => b.prefix - a.prefix);
  }

  get size(): number {
    return this.addresses.size + this.domains.size + this.cidrs.length;
  }

  /**
   * The deciding entry for a sender. For each address (envelope and header From) its most
   * specific entry counts: the exact address, else its *@domain; at one level allow beats
   * block. If several addresses are listed, a block on any of them wins: an allowed
   * envelope sender does not carry a blocked From past the list. Only when no address is
   * listed does the client IP decide, by its longest matching prefix. So "block
   * *@example.com" with "allow boss@example.com" lets the boss through, "allow
   * *@example.com" with "block spam@example.com" stops that one address, and an allowed
   * address gets through from a blocked network.
   */
  match(addresses: string[], ip: string | null): ListEntry | null {
    const pick = (list: ListEntry[]) => list.find((e) => e.kind === 'allow') ?? list[0] ?? null;
    const decided = addresses.flatMap((raw) => {
      const a = raw.toLowerCase();
      const exact = this.addresses.get(a);
      const hit = exact ? pick(exact) : pick(this.domains.get(a.slice(a.lastIndexOf('@') + 1)) ?? []);
      return hit ? [hit] : [];
    });
    if (decided.length > 0) return decided.find((e) => e.kind === 'block') ?? decided[0]!;
    const bits = ip ? toBits(ip) : null;
    if (!bits) return null;
    const best: Cidr[] = [];
    for (const c of this.cidrs) {
      if (c.v6 !== bits.v6) continue;
      if (best.length > 0 && c.prefix < best[0]!.prefix) break;
      if (mask(bits.bits, c.prefix, c.v6 ? 128 : 32) === c.bits) best.push(c);
    }
    return best.length > 0 ? pick(best.map((c) => c.entry)) : null;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
