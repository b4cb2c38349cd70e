import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_SCRYPT_N } from './features/account/password.js';

// The only place that reads process.env (DESIGN.md). Everything else receives a Config.

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

const Env = z.object({
  NODE_ENV: z.string().default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  SMTP_MAX_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  SMTP_SOCKET_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  SMTP_HOSTNAME: z.string().default('mail.mailwing.local'),
  // Inbound SMTP limits per client (issue 12). Counted in this process: each node limits on its
  // own, so a deployment with several nodes also caps connections per IP on its TCP load balancer.
  // The PROCESSES of one machine split these caps between them (cluster/worker.ts).
  SMTP_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().positive().default(20),
  SMTP_CONNECTIONS_PER_MINUTE_PER_IP: z.coerce.number().int().positive().default(60),
  SMTP_COMMAND_DEADLINE_MS: z.coerce.number().int().positive().default(30_000),
  SMTP_MAX_SESSION_MS: z.coerce.number().int().positive().default(10 * 60_000),
  SMTP_TARPIT_AFTER_UNKNOWN_RCPTS: z.coerce.number().int().min(0).default(3),
  SMTP_TARPIT_DELAY_MS: z.coerce.number().int().min(0).default(1_000),
  SMTP_MAX_UNKNOWN_RCPTS: z.coerce.number().int().positive().default(10),
  // HTTP slow clients (issue 12): headers must arrive within this, a whole request (a 50 MB upload
  // on a slow phone link included) within the other.
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(10 * 60_000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  // Identical processes sharing the HTTP and SMTP ports (DESIGN.md "Every core"). Default: one per
  // core on PostgreSQL; the embedded PGlite can be opened by one process only.
  PROCESSES: z.coerce.number().int().min(1).max(1024).optional(),
  // PostgreSQL connections per process (plus one that LISTENs); the default keeps the sum near 20.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).optional(),
  WORKERS: bool.default(true),
  // Threads per process that parse incoming MIME; 0 parses on the main thread. Default: the cores
  // left to each process after its main thread, at least one.
  PARSE_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  SESSION_DAYS: z.coerce.number().int().positive().default(30),
  // scrypt's cost (N) for new password hashes, a power of two; stored with each hash, so changing it
  // leaves old ones valid. Raise it on a fast machine; lower than the default only on a test rig.
  PASSWORD_SCRYPT_N: z.coerce.number().int().min(1024).max(65536).refine((n) => (n & (n - 1)) === 0, 'a power of two').default(DEFAULT_SCRYPT_N),
  // The image proxy refuses private and loopback targets unless this is set (tests only).
  IMAGE_PROXY_ALLOW_PRIVATE: bool.default(false),
  // Test rigs only: a signed-in POST /h5/dev/clock moves the timed-send clock forward (features/dev-clock).
  DEV_CLOCK: bool.default(false),
  // Attachments of outgoing mail (spec §9 leaves the sizes to us).
  ATTACH_MAX_FILE_BYTES: z.coerce.number().int().positive().default(25 * 1024 * 1024),
  ATTACH_MAX_TOTAL_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  ATTACH_BLOCKED_EXTENSIONS: z.string().default('exe,com,bat,cmd,scr,pif,cpl,msi,msp,vbs,vbe,js,jse,wsf,wsh,ps1,hta,jar,reg,lnk'),
  // Outbound delivery: a relay (smtp://user:pass@host:port, smtps:// for TLS from the start) or, without one, MX lookup.
  SMTP_RELAY: z.string().url().optional(),
  // A PEM file of CAs trusted for the relay's certificate besides the public ones (a private relay).
  SMTP_RELAY_CA: z.string().optional(),
  OUTBOUND_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(25),
  DNS_SERVERS: z.string().optional(),
  // Inbound SPF/DKIM/DMARC (issue 12): one DNS query's timeout, and the whole check's; past either, mail is accepted as temperror.
  INBOUND_DNS_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
  INBOUND_AUTH_DEADLINE_MS: z.coerce.number().int().positive().default(15_000),
  DELIVERY_RETRY_BASE_MS: z.coerce.number().int().positive().default(60_000),
  DELIVERY_RETRY_MAX_MS: z.coerce.number().int().positive().default(4 * 3600_000),
  DELIVERY_MAX_AGE_MS: z.coerce.number().int().positive().default(4 * 24 * 3600_000),
  DELIVERY_LEASE_MS: z.coerce.number().int().positive().default(10 * 60_000),
  DELIVERY_POLL_MS: z.coerce.number().int().positive().default(1_000),
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(10),
  // Web Push (RFC 8292): the contact the push services see in our VAPID token.
  PUSH_SUBJECT: z.string().optional(),
  // Push endpoints on private or loopback addresses, or plain http, are refused unless this is set (tests only: SSRF).
  PUSH_ALLOW_PRIVATE: bool.default(false),
  // CIDRs outbound HTTP may reach although not public (SSRF guard): an internal push or WeChat gateway.
  OUTBOUND_ALLOW: z.string().optional(),
  // WeChat login stays off until an appid and secret are given.
  WECHAT_APPID: z.string().optional(),
  WECHAT_SECRET: z.string().optional(),
  WECHAT_API_BASE: z.string().url().default('https://api.weixin.qq.com'),
  WECHAT_OAUTH_BASE: z.string().url().default('https://open.weixin.qq.com'),
  WECHAT_REDIRECT_URI: z.string().optional(),
  // Collecting mail from other mailboxes (issue 16): the key that encrypts their passwords (32 bytes,
  // base64); without it a key file is made once in DATA_DIR. Nodes that share a database share this key.
  COLLECT_KEY: z.string().optional(),
  // Remote POP3/IMAP hosts on private or loopback addresses are refused unless this is set (tests only).
  COLLECT_ALLOW_PRIVATE: bool.default(false),
  // A PEM file of CAs trusted for POP3/IMAP servers besides the public ones.
  COLLECT_CA: z.string().optional(),
  COLLECT_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  // Network disk (issue 18): unfinished resumable uploads are removed, and their quota reservation freed, after this.
  DISK_UPLOAD_TTL_HOURS: z.coerce.number().positive().default(24),
  // Admin console DNS checks (issue 17): the servers asked (else DNS_SERVERS, else the system's),
  // one query's timeout (past it a record is "unverifiable"), and the addresses our mail leaves
  // from, which SPF must pass (else SMTP_HOSTNAME's A/AAAA). WEB_URL is the login page's base in welcome mail.
  DOMAIN_CHECK_DNS_SERVERS: z.string().optional(),
  DOMAIN_CHECK_TIMEOUT_MS: z.coerce.number().int().positive().default(3_000),
  SENDING_IPS: z.string().optional(),
  WEB_URL: z.string().url().optional(),
  // The west storefront (issue 19): the hosted domain its code mails come from (default: the first hosted domain).
  WEST_MAIL_DOMAIN: z.string().optional(),
  // Top-up through the sandbox provider (no money moves): on unless NODE_ENV=production.
  WEST_SANDBOX_PAY: bool.optional(),
  // The address the storefront is reached at from outside: Alipay's notify_url and return_url are built on it.
  WEST_PUBLIC_URL: z.string().url().optional(),
  // Alipay page payment: on when the app id and both keys are set. Keys are PEM text or a PEM file path.
  ALIPAY_APP_ID: z.string().optional(),
  ALIPAY_PRIVATE_KEY: z.string().optional(),
  ALIPAY_PUBLIC_KEY: z.string().optional(),
  ALIPAY_GATEWAY: z.string().url().default('https://openapi.alipay.com/gateway.do'),
  // Location pages (issue 15 §6): the raster tile URL template ({z}/{x}/{y}) browsers load the
  // map from (the CSP allows images from exactly its origin), and the words crediting it.
  MAP_TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_TILE_ATTRIBUTION: z.string().default('© OpenStreetMap contributors'),
  // A Nominatim-compatible search endpoint (…/search?q=&format=jsonv2); unset, places are found by
  // coordinates and the device's position only. The server asks it, through the SSRF guard.
  MAP_GEOCODER_URL: z.string().url().optional(),
});

/**
 * A tile URL template, checked once: http(s), {z}, {x} and {y} present, and a fixed host, so
 * the CSP can name exactly one origin (no {s} subdomains, which would need a wildcard).
 */
export function tileTemplate(value: string): { url: string; origin: string } {
  const m = /^(https?):\/\/([^/?#]+)(?:[/?#]|$)/i.exec(value);
  if (!m) throw new Error(`MAP_TILE_URL must be an http(s) URL: ${value}`);
  if (/[{}]/.test(m[2]!)) throw new Error('MAP_TILE_URL must name one host ({s} subdomains are not supported: the CSP names exactly one origin)');
  let origin: string;
  try {
    origin = new URL(`${m[1]}://${m[2]}`).origin;
  } catch {
    throw new Error(`MAP_TILE_URL has no valid host: ${value}`);
  }
  // The origin goes into a CSP header as it is: nothing but a plain host and port may pass.
  if (!/^https?:\/\/[A-Za-z0-9.\-[\]:]+$/.test(origin)) throw new Error(`MAP_TILE_URL has an unusable host: ${origin}`);
  for (const part of ['{z}', '{x}', '{y}']) if (!value.includes(part)) throw new Error(`MAP_TILE_URL must contain ${part}`);
  return { url: value, origin };
}

export interface DeliveryConfig {
  relay: string | undefined;
  /** SMTP_RELAY_CA: a PEM file of extra CAs for the relay's certificate. */
  relayCaFile?: string;
  port: number;
  dnsServers: string[];
  retryBaseMs: number;
  retryMaxMs: number;
  maxAgeMs: number;
  leaseMs: number;
  pollMs: number;
  concurrency: number;
}

/** Sender authentication of mail coming in through MX; DNS goes to delivery.dnsServers. */
export interface InboundAuthConfig {
  dnsTimeoutMs: number;
  deadlineMs: number;
}

/** Limits on one SMTP client, kept per node in memory (see the env comment). */
export interface SmtpLimitsConfig {
  maxConnectionsPerIp: number;
  connectionsPerMinutePerIp: number;
  /** A line the client has begun must be complete within this, however it trickles. */
  commandDeadlineMs: number;
  maxSessionMs: number;
  /** Refused RCPTs in a session answered at once; each later one waits tarpitDelayMs longer than the last. */
  tarpitAfterUnknownRcpts: number;
  tarpitDelayMs: number;
  /** At this many refused RCPTs the session ends with 421. */
  maxUnknownRcpts: number;
}

export interface HttpLimitsConfig {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How often Node looks for requests past those limits (30 s by default; tests make it short). */
  checkIntervalMs: number;
}

export interface AttachmentConfig {
  maxFileBytes: number;
  maxTotalBytes: number;
  blockedExtensions: string[];
}

export interface OutboundConfig {
  /** CIDRs that outbound HTTP (image proxy, push, WeChat) may reach besides global unicast. */
  allow: string[];
  /** DNS_SERVERS; empty for the system resolver. */
  dnsServers: string[];
}

export interface PushConfig {
  subject: string;
  allowPrivate: boolean;
}

export interface WechatConfig {
  /** Both set, or WeChat login is off. */
  appId: string | undefined;
  secret: string | undefined;
  apiBase: string;
  oauthBase: string;
  /** Where WeChat sends the browser back with ?code&state: the web client's login page. */
  redirectUri: string;
}

export interface CollectConfig {
  /** COLLECT_KEY; undefined: the key file DATA_DIR/collect.key, made on first use. */
  key: string | undefined;
  allowPrivate: boolean;
  caFile?: string;
  /** Each socket step (connect, greeting, one command, one message) must finish within this. */
  timeoutMs: number;
  /** How long a claimed run holds its account before another node may take it. */
  leaseMs: number;
}

export interface DiskConfig {
  /** Where tus keeps unfinished uploads: under DATA_DIR, so a finished one moves into the blob store without a copy. */
  uploadDir: string;
  uploadTtlMs: number;
}

export interface DomainCheckConfig {
  dnsServers: string[];
  timeoutMs: number;
  sendingIps: string[];
  /** The web client's base URL, for the login link in welcome mail; undefined: https://<the user's domain>/. */
  webUrl: string | undefined;
}

export interface MapConfig {
  /** Raster tile URL template ({z}, {x}, {y}). */
  tileUrl: string;
  /** The template's origin: the one image origin the CSP adds. */
  tileOrigin: string;
  attribution: string;
  /** Nominatim-compatible search endpoint; undefined: search by coordinates only. */
  geocoderUrl: string | undefined;
}

export interface Config {
  production: boolean;
  host: string;
  port: number;
  smtp: { host: string; port: number; maxBytes: number; socketTimeoutMs: number; hostname: string };
  smtpLimits: SmtpLimitsConfig;
  http: HttpLimitsConfig;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PROCESSES: 1 runs everything in this process; more makes main.ts a cluster primary. */
  processes: number;
  databasePoolSize: number;
  workers: boolean;
  parseWorkers: number;
  logLevel: string;
  webDist: string;
  sessionDays: number;
  imageProxyAllowPrivate: boolean;
  /** PASSWORD_SCRYPT_N: scrypt's cost for new password hashes (features/account/password.ts). */
  passwordScryptN: number;
  /** DEV_CLOCK: the timed-send clock a test rig moves (features/dev-clock); never in production. */
  devClock: boolean;
  attachments: AttachmentConfig;
  delivery: DeliveryConfig;
  inboundAuth: InboundAuthConfig;
  push: PushConfig;
  outbound: OutboundConfig;
  wechat: WechatConfig;
  collect: CollectConfig;
  disk: DiskConfig;
  domainCheck: DomainCheckConfig;
  west: WestConfig;
  map: MapConfig;
}

export interface WestConfig {
  /** WEST_MAIL_DOMAIN; undefined: the first hosted domain. */
  mailDomain: string | undefined;
  sandboxPay: boolean;
  /** Base of the notify and return URLs given to a payment provider. */
  publicUrl: string;
  alipay: AlipayConfig | undefined;
}

export interface AlipayConfig {
  appId: string;
  /** The app's RSA private key (PEM text or a file path): signs requests (RSA2). */
  privateKey: string;
  /** Alipay's public key (PEM text or a file path): verifies callbacks and answers. */
  publicKey: string;
  gateway: string;
}

const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

/**
 * One process per core on PostgreSQL, as a node that has its cores to itself wants. When the
 * database runs on the same machine (a loopback host or a Unix socket) its backends need cores
 * too, and a process per core oversubscribes them. On 2 cores with PostgreSQL beside, in three
 * interleaved pairs (bench:smtp-ingest, SHAPE=blast), 1 process took in 240–296 mail/s at
 * 3.0–3.8 ms of its CPU per mail, 2 processes 183–238 at 4.3–5.5 (smaller commit batches, the
 * fixed work twice); `mail/list` served 700–710 requests/s against 509–697, with a p99 at 20
 * clients of 73–81 ms against 125–130. Such a machine gets half its cores; PGlite is one process always.
 */
export function defaultProcesses(databaseUrl: string | undefined, cores: number): number {
  if (!databaseUrl) return 1;
  return databaseOnThisMachine(databaseUrl) ? Math.max(1, Math.floor(cores / 2)) : cores;
}

function databaseOnThisMachine(databaseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return false;
  }
  // pg reads a `host` query parameter over the URL's host; a path there (or an encoded one as the host) is a Unix socket.
  const host = decodeURIComponent(url.searchParams.get('host') ?? url.hostname).toLowerCase();
  return host === '' || host.startsWith('/') || host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = Env.parse(env);
  const dataDir = path.resolve(e.DATA_DIR);
  const cores = os.availableParallelism();
  const tiles = tileTemplate(e.MAP_TILE_URL);
  const processes = e.PROCESSES ?? defaultProcesses(e.DATABASE_URL, cores);
  if (processes > 1 && !e.DATABASE_URL) {
    throw new Error(`PROCESSES=${processes} needs DATABASE_URL: the embedded database (PGlite) can be opened by one process only`);
  }
  if (e.PASSWORD_SCRYPT_N < DEFAULT_SCRYPT_N && e.NODE_ENV === 'production') throw new Error(`PASSWORD_SCRYPT_N=${e.PASSWORD_SCRYPT_N} is for test rigs: in production at least ${DEFAULT_SCRYPT_N}`);
  // A clock anyone signed in can move has no place on a real server; and each process would keep its own.
  if (e.DEV_CLOCK && (e.NODE_ENV === 'production' || processes > 1)) throw new Error('DEV_CLOCK=1 is for a single-process test rig: not with NODE_ENV=production nor PROCESSES > 1');
  return {
    production: e.NODE_ENV === 'production',
    host: e.HOST,
    port: e.PORT,
    smtp: { host: e.SMTP_HOST ?? e.HOST, port: e.SMTP_PORT, maxBytes: e.SMTP_MAX_BYTES, socketTimeoutMs: e.SMTP_SOCKET_TIMEOUT_MS, hostname: e.SMTP_HOSTNAME },
    smtpLimits: {
      maxConnectionsPerIp: e.SMTP_MAX_CONNECTIONS_PER_IP, connectionsPerMinutePerIp: e.SMTP_CONNECTIONS_PER_MINUTE_PER_IP, commandDeadlineMs: e.SMTP_COMMAND_DEADLINE_MS,
      maxSessionMs: e.SMTP_MAX_SESSION_MS, tarpitAfterUnknownRcpts: e.SMTP_TARPIT_AFTER_UNKNOWN_RCPTS, tarpitDelayMs: e.SMTP_TARPIT_DELAY_MS,
      maxUnknownRcpts: e.SMTP_MAX_UNKNOWN_RCPTS,
    },
    http: { headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS, checkIntervalMs: 5_000 },
    dataDir,
    databaseUrl: e.DATABASE_URL,
    processes,
    // PostgreSQL's default max_connections is 100: one process keeps 10, many share about 20, at least 4 each.
    databasePoolSize: e.DATABASE_POOL_SIZE ?? (processes === 1 ? 10 : Math.min(10, Math.max(4, Math.ceil(20 / processes)))),
    workers: e.WORKERS,
    parseWorkers: e.PARSE_WORKERS ?? Math.max(1, Math.floor(cores / processes) - 1),
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    sessionDays: e.SESSION_DAYS,
    imageProxyAllowPrivate: e.IMAGE_PROXY_ALLOW_PRIVATE,
    passwordScryptN: e.PASSWORD_SCRYPT_N,
    devClock: e.DEV_CLOCK,
    attachments: { maxFileBytes: e.ATTACH_MAX_FILE_BYTES, maxTotalBytes: e.ATTACH_MAX_TOTAL_BYTES, blockedExtensions: list(e.ATTACH_BLOCKED_EXTENSIONS) },
    delivery: {
      relay: e.SMTP_RELAY, relayCaFile: e.SMTP_RELAY_CA, port: e.OUTBOUND_SMTP_PORT, dnsServers: list(e.DNS_SERVERS), retryBaseMs: e.DELIVERY_RETRY_BASE_MS,
      retryMaxMs: e.DELIVERY_RETRY_MAX_MS, maxAgeMs: e.DELIVERY_MAX_AGE_MS, leaseMs: e.DELIVERY_LEASE_MS, pollMs: e.DELIVERY_POLL_MS,
      concurrency: e.DELIVERY_CONCURRENCY,
    },
    inboundAuth: { dnsTimeoutMs: e.INBOUND_DNS_TIMEOUT_MS, deadlineMs: e.INBOUND_AUTH_DEADLINE_MS },
    push: { subject: e.PUSH_SUBJECT ?? `mailto:postmaster@${e.SMTP_HOSTNAME}`, allowPrivate: e.PUSH_ALLOW_PRIVATE },
    outbound: { allow: list(e.OUTBOUND_ALLOW), dnsServers: list(e.DNS_SERVERS) },
    wechat: {
      appId: e.WECHAT_APPID || undefined, secret: e.WECHAT_SECRET || undefined, apiBase: e.WECHAT_API_BASE.replace(/\/+$/, ''),
      oauthBase: e.WECHAT_OAUTH_BASE.replace(/\/+$/, ''), redirectUri: e.WECHAT_REDIRECT_URI ?? `http://${e.HOST}:${e.PORT}/`,
    },
    collect: { key: e.COLLECT_KEY || undefined, allowPrivate: e.COLLECT_ALLOW_PRIVATE, caFile: e.COLLECT_CA, timeoutMs: e.COLLECT_TIMEOUT_MS, leaseMs: 15 * 60_000 },
    disk: { uploadDir: path.join(dataDir, 'disk-uploads'), uploadTtlMs: e.DISK_UPLOAD_TTL_HOURS * 3600_000 },
    domainCheck: {
      dnsServers: list(e.DOMAIN_CHECK_DNS_SERVERS ?? e.DNS_SERVERS), timeoutMs: e.DOMAIN_CHECK_TIMEOUT_MS, sendingIps: list(e.SENDING_IPS), webUrl: e.WEB_URL,
    },
    west: {
      mailDomain: e.WEST_MAIL_DOMAIN || undefined, sandboxPay: e.WEST_SANDBOX_PAY ?? e.NODE_ENV !== 'production',
      publicUrl: (e.WEST_PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
      alipay: e.ALIPAY_APP_ID && e.ALIPAY_PRIVATE_KEY && e.ALIPAY_PUBLIC_KEY
        ? { appId: e.ALIPAY_APP_ID, privateKey: e.ALIPAY_PRIVATE_KEY, publicKey: e.ALIPAY_PUBLIC_KEY, gateway: e.ALIPAY_GATEWAY } : undefined,
    },
    map: { tileUrl: tiles.url, tileOrigin: tiles.origin, attribution: e.MAP_TILE_ATTRIBUTION, geocoderUrl: e.MAP_GEOCODER_URL },
  };
}

/** A config for tests and benches: same shape, explicit values, no environment. */
export function testConfig(overrides: Partial<Config> & { dataDir: string }): Config {
  return {
    production: false,
    host: '127.0.0.1',
    port: 0,
    smtp: { host: '127.0.0.1', port: 0, maxBytes: 50 * 1024 * 1024, socketTimeoutMs: 60_000, hostname: 'mx.test.local' },
    // Every test connects from 127.0.0.1 and some send hundreds of mails, so the per-IP caps are
    // out of the way here; the limit tests set their own, small, values.
    smtpLimits: {
      maxConnectionsPerIp: 1_000, connectionsPerMinutePerIp: 100_000, commandDeadlineMs: 30_000, maxSessionMs: 10 * 60_000,
      tarpitAfterUnknownRcpts: 3, tarpitDelayMs: 20, maxUnknownRcpts: 10,
    },
    http: { headersTimeoutMs: 20_000, requestTimeoutMs: 60_000, checkIntervalMs: 5_000 },
    databaseUrl: undefined,
    processes: 1,
    databasePoolSize: 10,
    workers: false,
    parseWorkers: 1,
    logLevel: 'silent',
    webDist: path.join(overrides.dataDir, 'no-web'),
    sessionDays: 30,
    imageProxyAllowPrivate: true,
    // The lowest cost allowed: hashes are checked the same way, and the suite makes thousands of them.
    passwordScryptN: 1024,
    devClock: false,
    attachments: { maxFileBytes: 25 * 1024 * 1024, maxTotalBytes: 50 * 1024 * 1024, blockedExtensions: ['exe', 'bat', 'js', 'vbs'] },
    delivery: {
      relay: undefined, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 2_000, maxAgeMs: 60_000, leaseMs: 5_000, pollMs: 100, concurrency: 10,
    },
    inboundAuth: { dnsTimeoutMs: 1_000, deadlineMs: 5_000 },
    push: { subject: 'mailto:postmaster@mx.test.local', allowPrivate: true },
    outbound: { allow: [], dnsServers: [] },
    wechat: { appId: undefined, secret: undefined, apiBase: 'https://api.weixin.qq.com', oauthBase: 'https://open.weixin.qq.com', redirectUri: 'http://127.0.0.1/' },
    collect: { key: undefined, allowPrivate: true, timeoutMs: 5_000, leaseMs: 60_000 },
    disk: { uploadDir: path.join(overrides.dataDir, 'disk-uploads'), uploadTtlMs: 24 * 3600_000 },
    // Empty servers: the test's own DNS stand-in (delivery.dnsServers); never the machine's resolver.
    domainCheck: { dnsServers: [], timeoutMs: 500, sendingIps: ['192.0.2.25'], webUrl: 'http://127.0.0.1/' },
    west: { mailDomain: undefined, sandboxPay: true, publicUrl: 'http://127.0.0.1', alipay: undefined },
    // No tile server or geocoder unless a test starts its loopback stand-in and points here.
    map: { tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png', tileOrigin: 'http://127.0.0.1:9', attribution: 'test tiles', geocoderUrl: undefined },
    ...overrides,
  };
}
