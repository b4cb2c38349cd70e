// A server with demo data for the migration and announcement screenshots (issue 17):
// npx tsx e2e/scripts/migrate-screens-server.ts <dataDir> <port>. Starts a Dovecot with
// one seeded old mailbox, migrates it once, publishes two announcements, and keeps running.
import { loadConfig } from '../../apps/server/src/config.js';
import { startRuntime } from '../../apps/server/src/runtime.js';
import { startDovecot } from '../../apps/server/test/dovecot-peer.js';

const dataDir = process.argv[2] ?? '/tmp/mw-migrate-screens';
const port = process.argv[3] ?? '18680';
const peer = await startDovecot();
const rt = await startRuntime(loadConfig({
  ...process.env, DATA_DIR: dataDir, PORT: port, SMTP_PORT: String(Number(port) + 1), LOG_LEVEL: 'silent', WORKERS: '0',
  COLLECT_ALLOW_PRIVATE: '1', COLLECT_CA: peer.caFile,
}), { memoryDb: true, seed: true });
const sv = rt.services;
const company = await sv.db.selectFrom('companies').select('id').where('name', '=', 'Demo Co').executeTakeFirstOrThrow();
peer.addUser('alice@old.test', 'pw');
for (let i = 1; i <= 40; i++) {
  const raw = `From: a${i}@old.test\r\nSubject: Old ${i}\r\nMessage-ID: <s-${i}@old.test>\r\n\r\n${'text '.repeat(200)}\r\n`;
  if (i % 4 === 0) peer.seedFolder('alice@old.test', 'Sent', raw, true);
  else if (i % 4 === 1) peer.seedFolder('alice@old.test', 'Projects', raw);
  else peer.seed('alice@old.test', raw);
}
const server = { host: 'localhost', port: peer.ports.imaps, tls: 'tls' as const };
await sv.migrate.importCsv(company.id, server, 'alice@old.test,pw,alice@demo.test\nbob@old.test,wrong,bob@demo.test\n');
await sv.migrate.runDue(5);
const sales = await sv.db.selectFrom('departments').select('id').where('name', '=', 'Sales').executeTakeFirstOrThrow();
const admin = await sv.db.selectFrom('users').select('id').where('email', '=', 'admin@demo.test').executeTakeFirstOrThrow();
await sv.announcements.publish(company.id, admin.id, { title: 'Office closed on Friday / 周五办公室关闭', body: 'The office is closed on Friday for maintenance.', departments: '' });
await sv.announcements.publish(company.id, admin.id, { title: 'Sales meeting Monday 9:00 / 周一销售例会', body: 'Room 3.', departments: String(sales.id) });
console.log('ready', rt.httpPort);
process.on('SIGTERM', () => { void rt.stop().then(() => peer.stop()).then(() => process.exit(0)); });
