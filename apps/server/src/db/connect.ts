import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-compose.js';
import * as m003 from './migrations/003-organise.js';
import type { Database } from './types.js';

export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrations: Record<string, Migration> = { '001-initial': m001, '002-compose': m002, '003-organise': m003 };

// int8 (OID 20) as a JS number on both backends: PGlite already does this, pg gives strings.
pg.types.setTypeParser(20, (v: string) => Number(v));

/** PostgreSQL when a URL is given, else embedded PGlite in `dataDir/db` ('memory' for a throwaway one). */
export async function connect(opts: { databaseUrl?: string; dataDir: string; memory?: boolean }): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  let dir: string | undefined;
  if (!opts.memory) {
    dir = path.join(opts.dataDir, 'db');
    await fs.mkdir(dir, { recursive: true });
  }
  const lite = new PGlite(dir, { parsers: { [types.INT8]: (v: string) => Number(v) } });
  await lite.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect(lite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
