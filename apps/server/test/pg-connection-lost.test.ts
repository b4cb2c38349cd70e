import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, type DbHandle } from '../src/db/connect.js';

// A pooled connection whose backend is terminated while a transaction holds it (between two of
// its statements) must fail that transaction, not the process: pg's Client emits 'error', and
// pg-pool listens for it only while the client is idle. Found as a flaky filing-thread test on
// CI (the filing thread died after pg_terminate_backend). PostgreSQL only: PGlite has no backends.
const url = process.env.DATABASE_URL;
let h: DbHandle;
let admin: DbHandle;

beforeAll(async () => {
  if (!url) return;
  h = await connect({ databaseUrl: url, dataDir: '', poolSize: 1, applicationName: 'mailwing lost-test' });
  admin = await connect({ databaseUrl: url, dataDir: '', poolSize: 1 });
});
afterAll(async () => {
  await h?.close();
  await admin?.close();
});

it.runIf(url)('a connection cut while checked out fails its transaction; the next one runs on a new connection', async () => {
  let errors = 0;
  const count = (): void => void (errors += 1);
  process.on('uncaughtException', count);
  try {
    const failed = h.db.transaction().execute(async (trx) => {
      const { pid } = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)).rows[0]!;
      // With a timeout, PostgreSQL (14+) answers once the backend has exited, so its socket is closed under
      // the checked-out client. Whether the client hears the close first or finds it writing the next
      // statement, it emits 'error' while checked out, which is the case under test.
      const gone = await sql<{ gone: boolean }>`SELECT pg_terminate_backend(${pid}, 10000) AS gone`.execute(admin.db);
      expect(gone.rows[0]!.gone).toBe(true);
      await sql`SELECT 1`.execute(trx);
    });
    await expect(failed).rejects.toThrow();
    expect(errors).toBe(0);
    const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(h.db);
    expect(again.rows[0]!.one).toBe(1);
  } finally {
    process.off('uncaughtException', count);
  }
});
