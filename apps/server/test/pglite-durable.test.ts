import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { connect, type DbHandle } from '../src/db/connect.js';
import { DURABLE_START_PARAMS, DurableNodeFS } from '../src/db/pglite-durable-fs.js';

// The embedded database flushes its commits to the disk (src/db/pglite-durable-fs.ts).
// A power cut cannot be staged in a test, so this watches the system calls that make a
// commit survive one: fsync of the WAL file before the commit returns, and of the data
// files at a checkpoint. The spy only records: every call still reaches the real fsync.
// Always PGlite, whatever DATABASE_URL says.

let dir: string;
let lite: PGlite;
const synced: string[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-durable-'));
  lite = new PGlite({ fs: new DurableNodeFS(dir), startParams: DURABLE_START_PARAMS });
  await lite.waitReady;
  await lite.exec('CREATE TABLE mail (id int PRIMARY KEY, body text)');
});

afterAll(async () => {
  await lite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  vi.restoreAllMocks();
  synced.length = 0;
});

function watchFsync(): void {
  const real = fs.fsyncSync;
  vi.spyOn(fs, 'fsyncSync').mockImplementation((fd: number) => {
    synced.push(path.relative(dir, fs.readlinkSync(`/proc/self/fd/${fd}`)));
    real(fd);
  });
}

describe('the embedded database on disk', () => {
  it('runs PostgreSQL with fsync on', async () => {
    expect((await lite.query<{ fsync: string }>('SHOW fsync')).rows[0]?.fsync).toBe('on');
    expect((await lite.query<{ wal_sync_method: string }>('SHOW wal_sync_method')).rows[0]?.wal_sync_method).toBe('fsync');
  });

  it('flushes the WAL to the disk before a commit returns, once per commit', async () => {
    watchFsync();
    await lite.query('INSERT INTO mail VALUES (1, $1)', ['first']);
    expect(synced.filter((f) => f.startsWith('pg_wal/'))).toHaveLength(1);
    await lite.transaction(async (tx) => {
      await tx.query('INSERT INTO mail VALUES (2, $1)', ['second']);
      await tx.query('INSERT INTO mail VALUES (3, $1)', ['third']);
      // Nothing is flushed before the commit: a transaction's statements share one flush.
      expect(synced.filter((f) => f.startsWith('pg_wal/'))).toHaveLength(1);
    });
    expect(synced.filter((f) => f.startsWith('pg_wal/'))).toHaveLength(2);
    // A read writes no WAL and waits for no disk.
    const before = synced.length;
    await lite.query('SELECT count(*) FROM mail');
    expect(synced).toHaveLength(before);
  });

  it('flushes the table files and the control file at a checkpoint, before older WAL may go', async () => {
    await lite.query('INSERT INTO mail VALUES (4, $1)', ['fourth']);
    const table = (await lite.query<{ p: string }>(`SELECT pg_relation_filepath('mail') AS p`)).rows[0]!.p;
    watchFsync();
    await lite.exec('CHECKPOINT');
    expect(synced).toContain(table);
    expect(synced).toContain('global/pg_control');
  });
});

describe('the server’s database thread', () => {
  let handle: DbHandle;
  let threadDir: string;
  beforeAll(async () => {
    threadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-durable-thread-'));
    handle = await connect({ dataDir: threadDir });
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(threadDir, { recursive: true, force: true });
  });

  it('opens the embedded database the same way', async () => {
    const r = await sql<{ fsync: string }>`SHOW fsync`.execute(handle.db);
    expect(r.rows[0]?.fsync).toBe('on');
  });
});
