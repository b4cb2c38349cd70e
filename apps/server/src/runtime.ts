import path from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';
import { buildApp } from './app.js';
import { FileBlobStore, STALE_TEMP_MS } from './blob/file-blob-store.js';
import type { Config } from './config.js';
import { connect, migrate, type DbHandle } from './db/connect.js';
import { seedDemo } from './demo/seed.js';
import { redactUrl } from './http/redact-url.js';
import type { App } from './http/types.js';
import { createServices, type Services } from './services.js';
import { createSmtpReceiver, listenSmtp } from './smtp/smtp-receiver.js';
import { authResolver } from './smtp/auth-dns.js';
import { InboundAuth } from './smtp/inbound-auth.js';
import { HostedDomains } from './features/account/hosted-domains.js';
import { QueueRunner } from './delivery/queue-runner.js';
import { REMINDER_POLL_MS } from './features/calendar/reminder.service.js';
import { DOMAIN_CHECK_POLL_MS } from './features/domain-check/domain-check.service.js';
import { QUOTA_NOTICE_POLL_MS } from './features/quota/quota-notice.service.js';
import { sweepIdempotencyKeys } from './features/idempotency/idempotency.hook.js';
import { usePasswordCost } from './features/account/password.js';

export interface Runtime {
  services: Services;
  app: App;
  httpPort: number;
  smtpPort: number;
  stop(): Promise<void>;
}

export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino({ level, redact: ['req.headers.authorization'] }, stream);
}

/** Opens storage, migrates, and builds the services: shared by the server, the CLI and the tests. */
export async function openServices(config: Config, opts: { memoryDb?: boolean; log?: Logger; migrate?: boolean } = {}): Promise<{ services: Services; db: DbHandle; close(): Promise<void> }> {
  usePasswordCost(config.passwordScryptN);
  const db = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, memory: opts.memoryDb, poolSize: config.databasePoolSize });
  // A cluster's primary migrates once before forking; its workers pass migrate: false.
  if (opts.migrate ?? true) await migrate(db.db);
  const store = new FileBlobStore(path.join(config.dataDir, 'blobs'));
  await store.init();
  const services = createServices(config, db.db, store, opts.log, db.listen);
  await services.diskUploads.init();
  // Parser and filing threads and the database keep a process alive, or a connection open, until closed.
  const close = async () => {
    await services.ingest.close();
    await services.parser.close();
    await db.close();
  };
  return { services, db, close };
}

/** Starts HTTP, SMTP and the workers. Used by main.ts and by tests that need real sockets. */
export async function startRuntime(config: Config, opts: { memoryDb?: boolean; seed?: boolean; migrate?: boolean; log?: Logger; logStream?: DestinationStream } = {}): Promise<Runtime> {
  const log = opts.log ?? createLogger(config.logLevel, opts.logStream);
  const { services, close } = await openServices(config, { ...opts, log });
  if (opts.seed ?? !config.production) await seedDemo(services, log);

  const logger: FastifyServerOptions['logger'] = config.logLevel === 'silent' ? false : {
    level: config.logLevel,
    ...(opts.logStream ? { stream: opts.logStream } : {}),
    serializers: { req: (req) => ({ method: req.method, url: redactUrl(req.url), id: req.id }) },
    // Fastify's own "Server listening at …" repeats what main.ts's "Mailwing is up" says
    // (with the SMTP port and the database too): debug, so start-up says it once.
    hooks: {
      logMethod(args, method, level) {
        if (level === 30 && typeof args[0] === 'string' && args[0].startsWith('Server listening at')) return this.debug(args[0]);
        return method.apply(this, args);
      },
    },
  };
  await services.events.start();
  await services.push.init();
  const app = await buildApp(services, { logger });
  await app.listen({ port: config.port, host: config.host });
  const httpAddr = app.server.address();
  const httpPort = typeof httpAddr === 'object' && httpAddr ? httpAddr.port : config.port;

  const domains = new HostedDomains(services.db);
  const inbound = new InboundAuth({
    db: services.db, domains, resolver: authResolver(config.delivery.dnsServers, config.inboundAuth.dnsTimeoutMs),
    hostname: config.smtp.hostname, deadlineMs: config.inboundAuth.deadlineMs, log,
  });
  const smtp = createSmtpReceiver({ db: services.db, ingest: services.ingest, recipientClock: services.recipientClock, log, inbound, domains, lists: services.companyLists, relay: services.groupRelay }, config.smtp, config.smtpLimits);
  const smtpPort = await listenSmtp(smtp, config.smtp.port, config.smtp.host);

  const timers: NodeJS.Timeout[] = [];
  const reminders = new QueueRunner(() => services.reminders.tick(), REMINDER_POLL_MS, log);
  const consoleJobs = new QueueRunner(async () => (await services.domainChecks.runDue()) + (await services.welcome.runDue()), DOMAIN_CHECK_POLL_MS, log);
  const quotaNotices = new QueueRunner(() => services.quotaNotices.tick(), QUOTA_NOTICE_POLL_MS, log);
  // Staging files and spools of uploads that died with a crash; by age, so it is safe in every process sharing DATA_DIR.
  timers.push(setInterval(() => { services.blobs.store.sweep(STALE_TEMP_MS).catch((err: unknown) => log.error({ err }, 'staging sweep failed')); }, 10 * 60_000));
  if (config.workers) {
    // Collects blobs whose last reference went away (a purge collects its own at once; this catches crashes in between).
    timers.push(setInterval(() => { services.blobs.collect().catch((err: unknown) => log.error({ err }, 'blob collection failed')); }, 10 * 60_000));
    timers.push(setInterval(() => { sweepIdempotencyKeys(services.db, services.idempotencyClock.now()).catch((err: unknown) => log.error({ err }, 'idempotency key sweep failed')); }, 60 * 60_000));
    timers.push(setInterval(() => { services.uploads.sweep().catch((err: unknown) => log.error({ err }, 'upload sweep failed')); }, 60 * 60_000));
    timers.push(setInterval(() => { services.diskUploads.sweep().catch((err: unknown) => log.error({ err }, 'disk upload sweep failed')); }, 10 * 60_000));
    timers.push(setInterval(() => { services.messages.autoArchiveDue().catch((err: unknown) => log.error({ err }, 'auto-archive failed')); }, 60 * 60_000));
    services.queue.start();
    services.ruleJobs.start();
    services.collectRunner.start();
    reminders.start();
    consoleJobs.start();
    services.westReconciler.start();
    await services.companyLife.start();
    quotaNotices.start();
    services.auditRunner.start();
    services.inviteRunner.start();
    services.migrateRunner.start();
    services.searchIndexRunner.start();
  }

  return {
    services, app, httpPort, smtpPort,
    async stop() {
      for (const t of timers) clearInterval(t);
      await services.queue.stop();
      await services.ruleJobs.stop();
      await services.collectRunner.stop();
      await reminders.stop();
      await consoleJobs.stop();
      await services.westReconciler.stop();
      await services.companyLife.stop();
      await quotaNotices.stop();
      await services.auditRunner.stop();
      await services.inviteRunner.stop();
      // A run in progress stops where it stands; its lease lets a later start resume it.
      services.migrate.abortAll();
      await services.migrateRunner.stop();
      await services.searchIndexRunner.stop();
      await services.searchIndexer.idle();
      services.outbound.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await services.events.stop();
      await services.push.idle();
      await app.close();
      await close();
    },
  };
}
