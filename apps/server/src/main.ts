import cluster from 'node:cluster';
import { Supervisor } from './cluster/supervisor.js';
import { announceReady, workerConfig } from './cluster/worker.js';
import { loadConfig } from './config.js';
import { createLogger, openServices, startRuntime } from './runtime.js';
import { DEMO_PASSWORD, seedDemo } from './demo/seed.js';

// The process entry: the only file that reads config, listens and starts workers. With
// PROCESSES=1 everything runs here; with more, this process is the cluster primary and each
// worker (this file again, forked) runs the whole runtime on the shared ports.
const config = loadConfig();
const log = createLogger(config.logLevel);

function stopOn(events: readonly ('SIGINT' | 'SIGTERM' | 'disconnect')[], stop: () => Promise<void>): void {
  let stopping = false;
  for (const event of events) {
    process.on(event, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal: event }, 'shutting down');
      stop().then(() => process.exit(0), (err: unknown) => { log.error({ err }, 'shutdown failed'); process.exit(1); });
    });
  }
}

/**
 * In production the "up" line is an info log for the operator's log store. In development
 * (and the demo) a person reads the console: the banner below says the same in words, so the
 * JSON line goes to debug and `npm start` prints the banner alone (LOG_LEVEL=debug shows both).
 */
function announceUp(httpPort: number, smtpPort: number, extra: Record<string, unknown> = {}): void {
  (config.production ? log.info.bind(log) : log.debug.bind(log))({ http: `http://${config.host}:${httpPort}`, smtp: `${config.smtp.host}:${smtpPort}`, db: config.databaseUrl ? 'postgres' : 'pglite', dataDir: config.dataDir, ...extra }, 'Mailwing is up');
  if (!config.production) {
    console.log(`\nMailwing demo: open http://${config.host}:${httpPort}/ and log in as alice@demo.test, bob@demo.test or admin@demo.test (password ${DEMO_PASSWORD}).\nSMTP for @demo.test listens on ${config.smtp.host}:${smtpPort}.\n`);
  }
}

if (config.processes === 1) {
  const rt = await startRuntime(config, { log });
  announceUp(rt.httpPort, rt.smtpPort);
  stopOn(['SIGINT', 'SIGTERM'], () => rt.stop());
} else if (cluster.isPrimary) {
  // Migrations and the demo seed run once, before any worker opens the database.
  const prep = await openServices(config, { log });
  if (!config.production) await seedDemo(prep.services, log);
  await prep.close();
  const supervisor = new Supervisor({ processes: config.processes, log });
  stopOn(['SIGINT', 'SIGTERM'], () => supervisor.stop());
  try {
    const ready = await supervisor.start();
    announceUp(ready.http, ready.smtp, { processes: config.processes, workers: supervisor.pids() });
  } catch (err) {
    log.fatal({ err }, 'Mailwing could not start');
    await supervisor.stop();
    process.exit(1);
  }
} else {
  const rt = await startRuntime(workerConfig(config), { log, seed: false, migrate: false });
  announceReady(rt);
  // 'disconnect': the primary is gone, so no new connections come; finish what is open and leave.
  stopOn(['SIGINT', 'SIGTERM', 'disconnect'], () => rt.stop());
}
