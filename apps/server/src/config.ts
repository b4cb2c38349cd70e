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
});

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
}

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
    ...overrides,
  };
}
