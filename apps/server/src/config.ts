import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

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
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  WORKERS: bool.default(true),
  // Threads that parse incoming MIME; 0 parses on the main thread.
  PARSE_WORKERS: z.coerce.number().int().min(0).max(64).default(Math.max(1, os.availableParallelism() - 1)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  SESSION_DAYS: z.coerce.number().int().positive().default(30),
  // The image proxy refuses private and loopback targets unless this is set (tests only).
  IMAGE_PROXY_ALLOW_PRIVATE: bool.default(false),
  // Attachments of outgoing mail (spec §9 leaves the sizes to us).
  ATTACH_MAX_FILE_BYTES: z.coerce.number().int().positive().default(25 * 1024 * 1024),
  ATTACH_MAX_TOTAL_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  ATTACH_BLOCKED_EXTENSIONS: z.string().default('exe,com,bat,cmd,scr,pif,cpl,msi,msp,vbs,vbe,js,jse,wsf,wsh,ps1,hta,jar,reg,lnk'),
  // Outbound delivery: a relay (smtp://user:pass@host:port, smtps:// for TLS from the start) or, without one, MX lookup.
  SMTP_RELAY: z.string().url().optional(),
  OUTBOUND_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(25),
  DNS_SERVERS: z.string().optional(),
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
});

export interface DeliveryConfig {
  relay: string | undefined;
  port: number;
  dnsServers: string[];
  retryBaseMs: number;
  retryMaxMs: number;
  maxAgeMs: number;
  leaseMs: number;
  pollMs: number;
  concurrency: number;
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

export interface Config {
  production: boolean;
  host: string;
  port: number;
  smtp: { host: string; port: number; maxBytes: number; socketTimeoutMs: number; hostname: string };
  dataDir: string;
  databaseUrl: string | undefined;
  workers: boolean;
  parseWorkers: number;
  logLevel: string;
  webDist: string;
  sessionDays: number;
  imageProxyAllowPrivate: boolean;
  attachments: AttachmentConfig;
  delivery: DeliveryConfig;
  push: PushConfig;
  outbound: OutboundConfig;
  wechat: WechatConfig;
}

const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = Env.parse(env);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    production: e.NODE_ENV === 'production',
    host: e.HOST,
    port: e.PORT,
    smtp: { host: e.SMTP_HOST ?? e.HOST, port: e.SMTP_PORT, maxBytes: e.SMTP_MAX_BYTES, socketTimeoutMs: e.SMTP_SOCKET_TIMEOUT_MS, hostname: e.SMTP_HOSTNAME },
    dataDir,
    databaseUrl: e.DATABASE_URL,
    workers: e.WORKERS,
    parseWorkers: e.PARSE_WORKERS,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    sessionDays: e.SESSION_DAYS,
    imageProxyAllowPrivate: e.IMAGE_PROXY_ALLOW_PRIVATE,
    attachments: { maxFileBytes: e.ATTACH_MAX_FILE_BYTES, maxTotalBytes: e.ATTACH_MAX_TOTAL_BYTES, blockedExtensions: list(e.ATTACH_BLOCKED_EXTENSIONS) },
    delivery: {
      relay: e.SMTP_RELAY, port: e.OUTBOUND_SMTP_PORT, dnsServers: list(e.DNS_SERVERS), retryBaseMs: e.DELIVERY_RETRY_BASE_MS,
      retryMaxMs: e.DELIVERY_RETRY_MAX_MS, maxAgeMs: e.DELIVERY_MAX_AGE_MS, leaseMs: e.DELIVERY_LEASE_MS, pollMs: e.DELIVERY_POLL_MS,
      concurrency: e.DELIVERY_CONCURRENCY,
    },
    push: { subject: e.PUSH_SUBJECT ?? `mailto:postmaster@${e.SMTP_HOSTNAME}`, allowPrivate: e.PUSH_ALLOW_PRIVATE },
    outbound: { allow: list(e.OUTBOUND_ALLOW), dnsServers: list(e.DNS_SERVERS) },
    wechat: {
      appId: e.WECHAT_APPID || undefined, secret: e.WECHAT_SECRET || undefined, apiBase: e.WECHAT_API_BASE.replace(/\/+$/, ''),
      oauthBase: e.WECHAT_OAUTH_BASE.replace(/\/+$/, ''), redirectUri: e.WECHAT_REDIRECT_URI ?? `http://${e.HOST}:${e.PORT}/`,
    },
  };
}

/** A config for tests and benches: same shape, explicit values, no environment. */
export function testConfig(overrides: Partial<Config> & { dataDir: string }): Config {
  return {
    production: false,
    host: '127.0.0.1',
    port: 0,
    smtp: { host: '127.0.0.1', port: 0, maxBytes: 50 * 1024 * 1024, socketTimeoutMs: 60_000, hostname: 'mx.test.local' },
    databaseUrl: undefined,
    workers: false,
    parseWorkers: 1,
    logLevel: 'silent',
    webDist: path.join(overrides.dataDir, 'no-web'),
    sessionDays: 30,
    imageProxyAllowPrivate: true,
    attachments: { maxFileBytes: 25 * 1024 * 1024, maxTotalBytes: 50 * 1024 * 1024, blockedExtensions: ['exe', 'bat', 'js', 'vbs'] },
    delivery: {
      relay: undefined, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 2_000, maxAgeMs: 60_000, leaseMs: 5_000, pollMs: 100, concurrency: 10,
    },
    push: { subject: 'mailto:postmaster@mx.test.local', allowPrivate: true },
    outbound: { allow: [], dnsServers: [] },
    wechat: { appId: undefined, secret: undefined, apiBase: 'https://api.weixin.qq.com', oauthBase: 'https://open.weixin.qq.com', redirectUri: 'http://127.0.0.1/' },
    ...overrides,
  };
}
