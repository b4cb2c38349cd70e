import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import pg from 'pg';

/*
 * The seeded demo state, built once per test run and copied into each test's data dir and
 * database. Building it from empty (a new PGlite cluster, ~30 migrations, the demo seed with
 * its scrypt hashes, DKIM key and parsed sample mails) was most of what a server test file
 * cost: apps/server/test/template-setup.ts says how much.
 *
 * The template is made by the same code a test boot runs (fixtures/build-template.ts:
 * openServices migrates, then seedDemo), and the runtime that then opens the copy still runs
 * its own migrations, which find nothing to do; a failing migration still fails the run.
 *
 * What the copy shares with its siblings is only what the seed itself makes: the demo
 * users, their mail, and the demo company's DKIM key. Every test file has its own copy, so
 * none sees another's writes. Keys made on first use (push's VAPID pair, app_keys, the
 * collection key file) are not in the template: openServices and the seed do not make them.
 */

export interface DbTemplate {
  /** A data dir holding the seed's blobs and disk upload dirs; for PGlite also its cluster in db/. */
  dataDir: string;
  /** With PostgreSQL: the template database, on the server of `DATABASE_URL`. */
  database?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by template-setup.ts; absent outside the server project. */
    mwDbTemplate: DbTemplate | undefined;
  }
}

export function withDatabase(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export async function dropTemplate(t: DbTemplate, adminUrl: string | undefined): Promise<void> {
  if (adminUrl && t.database) {
    await adminQuery(adminUrl, `ALTER DATABASE ${t.database} WITH IS_TEMPLATE false`);
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${t.database}`);
  }
  await fs.rm(t.dataDir, { recursive: true, force: true });
}

/** Copies the template's files into `dataDir` (an empty dir); with PostgreSQL, also its database into `database`. */
export async function cloneTemplate(t: DbTemplate, dataDir: string, adminUrl: string | undefined, database: string | undefined): Promise<void> {
  await copyTree(t.dataDir, dataDir);
  if (!adminUrl || !database || !t.database) return;
  // Two forks copying one template at once is allowed; a copy only fails while something is
  // connected to the template, which ALLOW_CONNECTIONS false rules out. So no retry here.
  await adminQuery(adminUrl, `CREATE DATABASE ${database} TEMPLATE ${t.database}`);
}

/**
 * Copies the contents of `from` into the existing dir `to`. The system's cp does it 3-5x
 * faster than fs.cp, which copies the ~1,500 files of a PGlite cluster one by one in JS
 * (43 MB on the shared 2-core machine, load ~5, 3 runs: fs.cp 800-1,700 ms, cp -R 190-500 ms);
 * every seeded boot pays this. Where there is no cp (Windows), fs.cp.
 */
async function copyTree(from: string, to: string): Promise<void> {
  try {
    await promisify(execFile)('cp', ['-R', `${from}/.`, to]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await fs.cp(from, to, { recursive: true });
  }
}
