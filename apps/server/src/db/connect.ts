import fs from 'node:fs/promises';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import pg from 'pg';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-compose.js';
import * as m003 from './migrations/003-organise.js';
import * as m004 from './migrations/004-contacts.js';
import * as m005 from './migrations/005-account.js';
import * as m006 from './migrations/006-links.js';
import * as m007 from './migrations/007-security.js';
import * as m008 from './migrations/008-inbound-auth.js';
import * as m009 from './migrations/009-signatures.js';
import * as m010 from './migrations/010-mail-rules.js';
import * as m011 from './migrations/011-collection.js';
import * as m012 from './migrations/012-calendar.js';
import * as m013 from './migrations/013-notes.js';
import * as m014 from './migrations/014-disk.js';
import * as m017 from './migrations/017-admin-domains.js';
import * as m022 from './migrations/022-undo-send.js';
import * as m015 from './migrations/015-west.js';
import * as m016 from './migrations/016-company-life.js';
import * as m018 from './migrations/018-admin-people.js';
import * as m019 from './migrations/019-admin-audit.js';
import * as m021 from './migrations/021-calendar-invites.js';
import * as m020 from './migrations/020-admin-migrate.js';
import * as m023 from './migrations/023-calendar-views-itip-out.js';
import * as m024 from './migrations/024-outbox-blob-release.js';
import * as m025 from './migrations/025-conversations.js';
import * as m026 from './migrations/026-idempotency.js';
import * as m030 from './migrations/030-search-queue.js';
import * as m031 from './migrations/031-lz4-bodies.js';
import * as m032 from './migrations/032-one-insert-trigger.js';
import * as m033 from './migrations/033-file-mail-one-statement.js';
import * as m034 from './migrations/034-folder-page-ids.js';
import * as m035 from './migrations/035-blob-rows.js';
import * as m036 from './migrations/036-search-uncompressed.js';
import * as m037 from './migrations/037-search-tokens-at-index.js';
import * as m038 from './migrations/038-bodies-uncompressed-without-lz4.js';
import * as m039 from './migrations/039-insert-trigger-by-index.js';
import * as m040 from './migrations/040-session-change-notify.js';
import * as m041 from './migrations/041-page-ids-generic.js';
import * as m042 from './migrations/042-foreign-key-indexes.js';
import * as m043 from './migrations/043-plain-text-in-blob.js';
import { PGliteThreadDialect } from './pglite-dialect.js';
import { PreparingClient } from './prepared.js';
import { PGliteThread } from './pglite-thread.js';
import type { Database } from './types.js';
import { setTypeParsers } from './type-parsers.js';

export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * LISTENs on a channel; `onDown` runs when the connection that hears them drops, `onLost` when it is back and notifications may have been missed
   * (the PostgreSQL connection dropped and was re-established). Returns an unlisten.
   */
  listen(channel: string, fn: (payload: string) => void, onLost?: () => void, onDown?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const migrations: Record<string, Migration> = {
  '001-initial': m001, '002-compose': m002, '003-organise': m003, '004-contacts': m004, '005-account': m005, '006-links': m006,
  '007-security': m007, '008-inbound-auth': m008, '009-signatures': m009, '010-mail-rules': m010, '011-collection': m011,
  '012-calendar': m012, '013-notes': m013, '014-disk': m014,
  '017-admin-domains': m017,
  '022-undo-send': m022,
  '015-west': m015,
  '016-company-life': m016,
  '018-admin-people': m018,
  '019-admin-audit': m019,
  '021-calendar-invites': m021,
  '020-admin-migrate': m020,
  '023-calendar-views-itip-out': m023,
  '024-outbox-blob-release': m024,
  '025-conversations': m025,
  '026-idempotency': m026,
  '030-search-queue': m030,
  // After 030 although numbered later than it was written: Kysely refuses a migration that sorts
  // before one a database has already run, and installations at 030 exist.
  '031-lz4-bodies': m031,
  '032-one-insert-trigger': m032,
  '033-file-mail-one-statement': m033,
  '034-folder-page-ids': m034,
  '035-blob-rows': m035,
  '036-search-uncompressed': m036,
  '037-search-tokens-at-index': m037,
  '038-bodies-uncompressed-without-lz4': m038,
  '039-insert-trigger-by-index': m039,
  '040-session-change-notify': m040,
  '041-page-ids-generic': m041,
  '042-foreign-key-indexes': m042,
  '043-plain-text-in-blob': m043,
};

setTypeParsers(pg.types);

/** PostgreSQL when a URL is given, else embedded PGlite in `dataDir/db` ('memory' for a throwaway one). */
export async function connect(opts: { databaseUrl?: string; dataDir: string; memory?: boolean; poolSize?: number; applicationName?: string }): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const url = opts.databaseUrl;
    // Marked statements go by name and keep one generic plan (prepared.ts); others are planned each time as before.
    const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, Client: PreparingClient, application_name: opts.applicationName });
    // An idle connection can die under the pool (server restart, admin shutdown, a dropped
    // database). pg-pool then emits 'error' on the pool, which without a listener would
    // crash the process; the pool simply opens a new connection when one is next needed.
    pool.on('error', () => undefined);
    // A connection can also die while checked out, between two statements of a transaction.
    // pg-pool listens for 'error' only on idle clients, so pg's Client then emitted it with no
    // listener and took the process (or the filing thread) down. The statements in flight fail
    // on their own, and the pool drops the dead client when it is released (it is no longer
    // queryable), so the event itself needs no handling.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', listen: (channel, fn, onLost, onDown) => pgListen(url, channel, fn, onLost, onDown), close: () => db.destroy() };
  }
  let dir: string | undefined;
  if (!opts.memory) {
    dir = path.join(opts.dataDir, 'db');
    await fs.mkdir(dir, { recursive: true });
  }
  // On a thread of its own, off the event loop that serves requests (pglite-thread.ts says why this way).
  const thread = await PGliteThread.start(dir);
  const db = new Kysely<Database>({ dialect: new PGliteThreadDialect(thread) });
  // One process owns an embedded database, so its own notifications are all there are.
  return { db, kind: 'pglite', listen: (channel, fn) => thread.listen(channel, fn), close: () => db.destroy() };
}

/** A dedicated connection that LISTENs (a pooled one would lose it), re-established after a drop. */
async function pgListen(url: string, channel: string, fn: (payload: string) => void, onLost?: () => void, onDown?: () => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnect = (): void => {
    if (stopped) return;
    retry = setTimeout(() => { open().then(() => onLost?.(), reconnect); }, 1_000);
  };
  const open = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => { if (n.channel === channel && n.payload !== undefined) fn(n.payload); });
    c.on('error', () => {
      // A dead LISTEN connection: reconnect, and say that events may have been missed.
      void c.end().catch(() => undefined);
      if (client !== c) return;
      client = null;
      onDown?.();
      reconnect();
    });
    await c.connect();
    await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = c;
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
