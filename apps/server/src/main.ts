import { loadConfig } from './config.js';
import { createLogger, startRuntime } from './runtime.js';
import { DEMO_PASSWORD } from './demo/seed.js';

// The process entry: the only file that reads config, listens and starts workers.
const config = loadConfig();
const log = createLogger(config.logLevel);

const rt = await startRuntime(config, { log });
log.info({ http: `http://${config.host}:${rt.httpPort}`, smtp: `${config.smtp.host}:${rt.smtpPort}`, db: config.databaseUrl ? 'postgres' : 'pglite', dataDir: config.dataDir }, 'Mailwing is up');
if (!config.production) {
  console.log(`\nMailwing demo: open http://${config.host}:${rt.httpPort}/ and log in as alice@demo.test, bob@demo.test or admin@demo.test (password ${DEMO_PASSWORD}).\nSMTP for @demo.test listens on ${config.smtp.host}:${rt.smtpPort}.\n`);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    rt.stop().then(() => process.exit(0), (err: unknown) => { log.error({ err }, 'shutdown failed'); process.exit(1); });
  });
}
