import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Code } from '@mailwing/shared';
import type { OutboundConfig } from '../config.js';
import { AppError } from '../errors.js';
import { AddressPolicy, dnsResolve, OutboundRefused, type OutboundPolicy, type Target } from './ssrf.js';

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer;
  /** For the whole exchange: resolution, every hop and the body. */
  timeoutMs: number;
  /** A longer body fails the request. */
  maxBytes: number;
  /** 3xx answers followed, each hop checked like the first; 0 hands the 3xx back to the caller. */
  maxRedirects?: number;
  /** Looked at before the body is read; false leaves the body unread (empty), e.g. for a type the caller will not use. */
  wantBody?: (status: number, headers: IncomingHttpHeaders) => boolean;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Where the answer came from, after any redirects. */
  url: URL;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * HTTP(S) requests to targets someone else chose (image URLs in mail, push
 * endpoints, …). The host is resolved once, every address checked against the
 * policy, and the socket dialled to those addresses through a `lookup` that hands
 * them back, so what was checked is what is reached; TLS SNI and Host still carry
 * the name. Redirects are followed by hand, each hop checked again. Each guard has
 * its own keep-alive agents, so a socket opened under one policy never serves another.
 */
export class OutboundGuard {
  private readonly addresses: AddressPolicy;
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  constructor(policy: OutboundPolicy) {
    this.addresses = new AddressPolicy(policy);
  }

  get allowPrivate(): boolean {
    return this.addresses.policy.allowPrivate === true;
  }

  /** Checks a URL's scheme and addresses without connecting, e.g. to refuse a subscription when it is made. */
  async check(url: string | URL): Promise<void> {
    await this.addresses.targets(httpUrl(url).hostname);
  }

  async fetch(url: string | URL, req: OutboundRequest): Promise<OutboundResponse> {
    const signal = AbortSignal.timeout(req.timeoutMs);
    let target = httpUrl(url);
    let method = req.method ?? 'GET';
    let body = req.body;
    let headers = { ...req.headers };
    for (let hop = 0; ; hop++) {
      const addrs = await abortable(this.addresses.targets(target.hostname), signal);
      const res = await this.send(target, addrs, { method, headers, body }, signal);
      const location = res.headers.location;
      if (!REDIRECTS.has(res.statusCode ?? 0) || !location || (req.maxRedirects ?? 0) === 0) return this.finish(res, target, req, signal);
      res.destroy();
      if (hop >= (req.maxRedirects ?? 0)) throw new OutboundRefused(`more than ${req.maxRedirects} redirects`, 'outbound.redirect_limit');
      const next = httpUrl(new URL(location, target));
      // RFC 9110 §15.4: 303 always, and 301/302 after POST in practice, continue as GET.
      if (res.statusCode === 303 || (method === 'POST' && res.statusCode !== 307 && res.statusCode !== 308)) {
        method = 'GET';
        body = undefined;
      }
      if (next.origin !== target.origin) headers = withoutCredentials(headers);
      target = next;
    }
  }

  /** Drops idle keep-alive sockets (shutdown). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private send(u: URL, addrs: Target[], r: { method: string; headers: Record<string, string>; body: Buffer | undefined }, signal: AbortSignal): Promise<IncomingMessage> {
    // Node dials IP literals without calling lookup; they were checked as they are.
    const lookup: LookupFunction = (_name, opts, cb) => {
      if (opts.all) cb(null, addrs);
      else cb(null, addrs[0]!.address, addrs[0]!.family);
    };
    const secure = u.protocol === 'https:';
    return new Promise<IncomingMessage>((resolve, reject) => {
      const creq = (secure ? https : http).request({
        protocol: u.protocol, hostname: u.hostname.replace(/^\[|\]$/g, ''), port: u.port || (secure ? 443 : 80), path: `${u.pathname}${u.search}`,
        method: r.method, headers: r.headers, lookup, signal, agent: secure ? this.agents.https : this.agents.http,
      }, resolve);
      creq.on('error', (err) => reject(signal.aborted ? signal.reason : err));
      creq.end(r.body);
    });
  }

  private async finish(res: IncomingMessage, url: URL, req: OutboundRequest, signal: AbortSignal): Promise<OutboundResponse> {
    const status = res.statusCode ?? 0;
    const out = { status, headers: res.headers, url, body: Buffer.alloc(0) };
    if (req.wantBody && !req.wantBody(status, res.headers)) {
      res.destroy();
      return out;
    }
    if (Number(res.headers['content-length'] ?? 0) > req.maxBytes) {
      res.destroy();
      throw tooLarge(req.maxBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res) {
        size += (chunk as Buffer).length;
        if (size > req.maxBytes) {
          res.destroy();
          throw tooLarge(req.maxBytes);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      throw signal.aborted ? signal.reason : err;
    }
    return { ...out, body: Buffer.concat(chunks) };
  }
}

/** A guard for one feature: its own opt-out flag plus the installation's allow-list and resolvers. */
export function outboundGuard(cfg: OutboundConfig, allowPrivate = false): OutboundGuard {
  return new OutboundGuard({ allowPrivate, allow: cfg.allow, resolve: cfg.dnsServers.length > 0 ? dnsResolve(cfg.dnsServers) : undefined });
}

function httpUrl(url: string | URL): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new OutboundRefused('not a valid URL', 'outbound.bad_url');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new OutboundRefused(`${u.protocol} is not http(s)`, 'outbound.scheme_refused');
  return u;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !/^(authorization|cookie|proxy-authorization)$/i.test(k)));
}

function tooLarge(max: number): AppError {
  return new AppError(Code.Internal, `the answer is larger than ${max} bytes`, { reason: 'outbound.too_large' });
}

async function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    })]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
