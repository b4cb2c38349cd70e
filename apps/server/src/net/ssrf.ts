import { lookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Code, type ReasonCode } from '@mailwing/shared';
import { AppError } from '../errors.js';

// Which addresses the server may open a connection to on someone else's behalf
// (SSRF). Every outbound request whose target comes from users, mail or remote
// servers goes through here, by way of OutboundGuard (guarded-fetch.ts).

/** Turns a host name into its addresses. Called once per connection: the answer is what gets checked and dialled. */
export type Resolve = (host: string) => Promise<string[]>;

export interface OutboundPolicy {
  /** Every address may be reached: IMAGE_PROXY_ALLOW_PRIVATE / PUSH_ALLOW_PRIVATE, for test rigs only. */
  allowPrivate?: boolean;
  /** CIDRs reachable although not global unicast (OUTBOUND_ALLOW: an operator's internal gateway, a test's loopback stand-in). */
  allow?: readonly string[];
  /** The system resolver (getaddrinfo) unless given. */
  resolve?: Resolve;
}

/** A target the policy will not connect to. Nothing was sent when this is thrown. */
export class OutboundRefused extends AppError {
  constructor(detail: string, reason: ReasonCode) {
    super(Code.Forbidden, detail, { reason });
  }
}

/** An address to dial, already checked. */
export interface Target { address: string; family: 4 | 6 }

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
// RFC 6052 well-known NAT64 prefix: the last 32 bits are the IPv4 address the translator reaches.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
// RFC 4291 §2.5.5.1 IPv4-compatible addresses (deprecated): some stacks still tunnel them to the IPv4 address.
const V4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

function lastV4(a: ipaddr.IPv6): ipaddr.IPv4 {
  const p = a.parts;
  return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
}

/**
 * The special range an address falls in, or null for global unicast. Wrapped IPv4
 * (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d) is judged by the IPv4 address it
 * reaches; the other translation and tunnelling forms (IPv4-compatible, SIIT, local
 * NAT64 64:ff9b:1::/48, 6to4, Teredo) are refused outright: no public service needs them.
 */
function specialRange(a: Addr): string | null {
  if (a.kind() === 'ipv4') {
    const r = a.range();
    return r === 'unicast' ? null : r;
  }
  const v6 = a as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return specialRange(v6.toIPv4Address());
  if (v6.match(NAT64_WELL_KNOWN)) {
    const inner = specialRange(lastV4(v6));
    return inner === null ? null : `NAT64 ${inner}`;
  }
  const r = v6.range();
  if (r !== 'unicast') return r;
  if (v6.match(V4_COMPATIBLE)) return 'IPv4-compatible';
  return v6.match(GLOBAL_UNICAST_V6) ? null : 'reserved';
}

/**
 * Parses an address that net.isIP accepts. IPv6 goes through the URL parser first:
 * ipaddr.js reads an embedded dotted quad as IPv4-mapped whatever precedes it (it
 * takes ::8.8.8.8 for ::ffff:8.8.8.8), and the URL parser writes it out as hex.
 */
function parseIp(ip: string): Addr | null {
  const kind = isIP(ip);
  // A zone id (fe80::1%eth0) names a link, never a public host.
  if (kind === 0 || ip.includes('%')) return null;
  return ipaddr.parse(kind === 6 ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip);
}

function describe(a: Addr, range: string): string {
  return `${a.toString()} is a ${range.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()} address`;
}

/** A policy made ready to use: allow-list parsed once, so a bad CIDR fails at start-up. */
export class AddressPolicy {
  private readonly allow: [Addr, number][];
  private readonly resolve: Resolve;

  constructor(readonly policy: OutboundPolicy) {
    this.allow = (policy.allow ?? []).map((cidr) => {
      try {
        return ipaddr.parseCIDR(cidr);
      } catch {
        throw new Error(`outbound allow-list: "${cidr}" is not a CIDR`);
      }
    });
    this.resolve = policy.resolve ?? systemResolve;
  }

  /** Why the server may not connect to this IP address, or null when it may. */
  problem(ip: string): string | null {
    const a = parseIp(ip);
    if (!a) return `${ip} is not a usable IP address`;
    if (this.policy.allowPrivate) return null;
    const range = specialRange(a);
    if (range === null) return null;
    const forms: Addr[] = a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? [a, (a as ipaddr.IPv6).toIPv4Address()] : [a];
    if (forms.some((f) => this.allow.some(([net, bits]) => f.kind() === net.kind() && f.match(net, bits)))) return null;
    return describe(a, range);
  }

  /**
   * The addresses to dial for `host` (a name or an IP literal, brackets allowed),
   * each one checked. One resolution per call: the caller connects to exactly these,
   * so a name that answers differently the second time (DNS rebinding) gains nothing.
   */
  async targets(host: string): Promise<Target[]> {
    const bare = host.replace(/^\[|\]$/g, '');
    const literal = isIP(bare);
    let addresses: string[];
    if (literal) addresses = [bare];
    else {
      try {
        addresses = await this.resolve(bare);
      } catch {
        addresses = [];
      }
      if (addresses.length === 0) throw new OutboundRefused(`${bare} does not resolve`, 'outbound.unresolvable');
    }
    const targets: Target[] = [];
    for (const address of addresses) {
      const problem = this.problem(address);
      // One bad answer refuses the name: a mix of public and private answers is how rebinding is staged.
      if (problem) throw new OutboundRefused(literal ? `${problem}` : `${bare} resolves to ${address}: ${problem}`, 'outbound.address_refused');
      targets.push({ address, family: isIP(address) === 6 ? 6 : 4 });
    }
    return targets;
  }
}

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

/** A resolver that asks these DNS servers (DNS_SERVERS) instead of the system's, for A and AAAA. */
export function dnsResolve(servers: readonly string[]): Resolve {
  const resolver = new Resolver();
  resolver.setServers([...servers]);
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    return [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
  };
}
