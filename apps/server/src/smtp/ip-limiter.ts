import net from 'node:net';

export interface IpLimits {
  /** Sessions open at once from one client. */
  maxConcurrent: number;
  /** New sessions per minute from one client, as a token bucket that refills evenly. */
  perMinute: number;
}

export type Admission = 'ok' | 'too_many' | 'too_fast';

interface Entry { active: number; tokens: number; at: number }

const MINUTE = 60_000;

/**
 * Per-client connection limits for the MX. The counts live in this process: each node
 * limits on its own, so a deployment with several nodes also puts a per-IP cap on its
 * TCP load balancer. An IPv6 client counts by its /64, the smallest block a site is
 * given (RFC 6177), or one host could step around the cap address by address.
 */
export class IpLimiter {
  private readonly entries = new Map<string, Entry>();
  private lastSweep: number;

  constructor(private readonly limits: IpLimits, private readonly now: () => number = Date.now) {
    this.lastSweep = now();
  }

  /** Takes a slot for a new session, or says why not; every 'ok' needs one release(). */
  admit(address: string): Admission {
    const t = this.now();
    this.sweep(t);
    const key = clientKey(address);
    const e = this.entries.get(key) ?? { active: 0, tokens: this.limits.perMinute, at: t };
    e.tokens = Math.min(this.limits.perMinute, e.tokens + ((t - e.at) * this.limits.perMinute) / MINUTE);
    e.at = t;
    this.entries.set(key, e);
    if (e.active >= this.limits.maxConcurrent) return 'too_many';
    if (e.tokens < 1) return 'too_fast';
    e.tokens -= 1;
    e.active += 1;
    return 'ok';
  }

  release(address: string): void {
    const e = this.entries.get(clientKey(address));
    if (e && e.active > 0) e.active -= 1;
  }

  /** Sessions open now from the client's address (or /64), for tests and diagnostics. */
  active(address: string): number {
    return this.entries.get(clientKey(address))?.active ?? 0;
  }

  /** Forgets clients with nothing open and a full bucket, so the map stays as small as the recent clients. */
  private sweep(t: number): void {
    if (t - this.lastSweep < MINUTE) return;
    this.lastSweep = t;
    for (const [key, e] of this.entries) {
      if (e.active === 0 && e.tokens + ((t - e.at) * this.limits.perMinute) / MINUTE >= this.limits.perMinute) this.entries.delete(key);
    }
  }
}

/** The address for IPv4 (smtp-server already unwraps ::ffff:a.b.c.d), the /64 for IPv6. */
export function clientKey(address: string): string {
  if (!net.isIPv6(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::');
  // An embedded dotted IPv4 tail fills the last two groups.
  const groups = (s: string) => (s ? s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const h = groups(head);
  const full = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - groups(tail).length).fill('0'), ...groups(tail)];
  return `${full.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}
