import { Resolver } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import nodemailer, { type Transporter } from 'nodemailer';
import type { DeliveryConfig } from '../config.js';

export type AttemptResult =
  | { ok: true; response: string; host: string }
  | { ok: false; permanent: boolean; error: string; host: string };

interface Target {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
  /** The MX name, when `host` is the address it resolved to: for TLS SNI and for reports. */
  name?: string;
  /** A relay we log in to: TLS is required and its certificate checked against these CAs. */
  verifyWith?: string[];
}

type Route = { targets: Target[] } | { failure: string };

const MX_CACHE_MS = 5 * 60_000;

/**
 * Sends one message to one outside recipient over SMTP with nodemailer: through
 * the configured relay, or to the recipient domain's MX hosts in preference order.
 *
 * TLS: a relay with credentials gets them only over TLS (smtps, or STARTTLS made
 * mandatory) with its certificate verified for its name, against the public CAs
 * plus SMTP_RELAY_CA; without that, the attempt fails as temporary and the job waits.
 * MX hosts (and a relay without credentials) get opportunistic STARTTLS, unverified:
 * MX certificates are rarely valid for their names, there is no secret to protect,
 * and refusing plain-text MX would stop mail to many domains (RFC 3207 §4; MTA-STS
 * and DANE are what make MX TLS verifiable).
 *
 * One pooled connection set per host keeps a busy queue from opening a socket per message.
 */
export class SmtpOutbound {
  private readonly pools = new Map<string, Transporter>();
  private readonly mxCache = new Map<string, { route: Route; until: number }>();
  private readonly resolver = new Resolver();
  private readonly relay: Target | undefined;

  constructor(private readonly cfg: DeliveryConfig, private readonly heloName: string) {
    if (cfg.dnsServers.length > 0) this.resolver.setServers(cfg.dnsServers);
    this.relay = cfg.relay ? parseRelay(cfg.relay, cfg.relayCaFile) : undefined;
  }

  async deliver(from: string, rcpt: string, raw: Buffer): Promise<AttemptResult> {
    const route = this.relay ? { targets: [this.relay] } : await this.route(rcpt.split('@')[1] ?? '');
    if ('failure' in route) return { ok: false, permanent: !route.failure.startsWith('4'), error: route.failure, host: '' };
    let last: AttemptResult = { ok: false, permanent: false, error: '451 4.4.1 no mail server could be reached', host: '' };
    for (const target of route.targets) {
      try {
        const info = await this.pool(target).sendMail({ envelope: { from, to: [rcpt] }, raw }) as { response?: string };
        return { ok: true, response: info.response ?? '250 OK', host: target.name ?? target.host };
      } catch (err) {
        const e = err as Error & { responseCode?: number; response?: string; code?: string };
        // TLS did not come up (for a relay: no STARTTLS, or a certificate that fails): nothing about the message was refused.
        if (e.code === 'ETLS') {
          const what = target.verifyWith ? 'TLS required before logging in' : 'TLS failed';
          last = { ok: false, permanent: false, error: `451 4.7.0 ${target.name ?? target.host}: ${what} (${e.message})`, host: target.name ?? target.host };
          continue;
        }
        if (typeof e.responseCode === 'number') {
          // The server answered: its verdict stands, other MX hosts are not asked (RFC 5321 §5.1).
          return { ok: false, permanent: e.responseCode >= 500, error: e.response ?? `${e.responseCode} ${e.message}`, host: target.name ?? target.host };
        }
        last = { ok: false, permanent: false, error: `451 4.4.1 ${target.name ?? target.host}: ${e.message}`, host: target.name ?? target.host };
      }
    }
    return last;
  }

  private async route(domain: string): Promise<Route> {
    const cached = this.mxCache.get(domain);
    if (cached && cached.until > Date.now()) return cached.route;
    const route = await this.lookup(domain);
    // Temporary DNS failures are not cached: the next attempt asks again.
    if ('targets' in route || !route.failure.startsWith('4')) this.mxCache.set(domain, { route, until: Date.now() + MX_CACHE_MS });
    return route;
  }

  private async lookup(domain: string): Promise<Route> {
    let names: string[];
    try {
      const mx = (await this.resolver.resolveMx(domain)).sort((a, b) => a.priority - b.priority);
      // RFC 7505: a single MX of "." says the domain takes no mail at all.
      if (mx.length === 1 && (mx[0]!.exchange === '' || mx[0]!.exchange === '.')) return { failure: `556 5.1.10 ${domain} accepts no mail (null MX)` };
      names = mx.map((m) => m.exchange);
    } catch (err) {
      const code = (err as { code?: string }).code;
      // RFC 5321 §5.1: without MX records the domain's own address is the implicit MX.
      if (code === 'ENODATA') names = [domain];
      else if (code === 'ENOTFOUND') return { failure: `550 5.1.2 ${domain}: no such domain` };
      else return { failure: `451 4.4.3 DNS lookup for ${domain} failed (${code ?? 'error'})` };
    }
    // Addresses come from the same resolver as the MX records, so DNS_SERVERS governs both.
    const targets: Target[] = [];
    for (const name of names) {
      const addresses = await this.resolver.resolve4(name).catch(() => this.resolver.resolve6(name).catch(() => [] as string[]));
      for (const ip of addresses) targets.push({ host: ip, name, port: this.cfg.port, secure: false });
    }
    if (targets.length === 0) return { failure: `451 4.4.4 no address found for the mail servers of ${domain}` };
    return { targets };
  }

  private pool(t: Target): Transporter {
    const key = `${t.host}:${t.port}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const tls = t.verifyWith
        ? { rejectUnauthorized: true, ca: t.verifyWith, ...(isIP(t.host) ? {} : { servername: t.host }) }
        : { rejectUnauthorized: false, ...(t.name ? { servername: t.name } : {}) };
      pool = nodemailer.createTransport({
        host: t.host, port: t.port, secure: t.secure, requireTLS: t.verifyWith !== undefined, auth: t.auth, name: this.heloName,
        pool: true, maxConnections: 5, maxMessages: 100,
        connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 5 * 60_000,
        tls,
        logger: false,
      });
      this.pools.set(key, pool);
    }
    return pool;
  }

  close(): void {
    for (const pool of this.pools.values()) pool.close();
    this.pools.clear();
  }
}

function parseRelay(url: string, caFile: string | undefined): Target {
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  const auth = u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  // `ca` replaces Node's trust store, so the public roots go in with the extra CA. Read at start-up: a wrong path stops the server.
  const verifyWith = auth ? [...rootCertificates, ...(caFile ? [readFileSync(caFile, 'utf8')] : [])] : undefined;
  return { host, port: Number(u.port) || (secure ? 465 : 587), secure, auth, verifyWith };
}
