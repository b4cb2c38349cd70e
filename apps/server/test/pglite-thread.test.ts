import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '../src/db/connect.js';
import { PGliteThread } from '../src/db/pglite-thread.js';

// The embedded database runs on its own thread (src/db/pglite-thread.ts). These talk to
// it through connect(), as the server does; always PGlite, whatever DATABASE_URL says.

let dir: string;
let handle: DbHandle;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-pglite-'));
  handle = await connect({ dataDir: dir });
  await sql`create table t (n int primary key)`.execute(handle.db);
});

afterAll(async () => {
  await handle.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('PGlite on its own thread', () => {
  it('keeps serving the event loop while a statement runs', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as { port: number };
    try {
      let finished = false;
      const slow = sql`select pg_sleep(2)`.execute(handle.db).then(() => { finished = true; });
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(await res.text()).toBe('ok');
      expect(finished).toBe(false);
      await slow;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('gives a transaction the session to itself: others wait, and its rollback takes nothing of theirs', async () => {
    const order: string[] = [];
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => { entered = resolve; });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const tx = handle.db.transaction().execute(async (trx) => {
      await sql`insert into t values (1)`.execute(trx);
      entered();
      await gate;
      // A statement of the transaction's own, after the outsider asked: it goes first.
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from t`.execute(trx);
      order.push(`tx saw ${rows[0]!.n}`);
      throw new Error('changed my mind');
    }).catch((err: unknown) => (err as Error).message);
    await inside;
    const outsider = sql`insert into t values (2)`.execute(handle.db).then(() => order.push('outsider'));
    release();
    expect(await tx).toBe('changed my mind');
    await outsider;
    expect(order).toEqual(['tx saw 1', 'outsider']);
    const { rows } = await sql<{ n: number }>`select n from t order by n`.execute(handle.db);
    expect(rows.map((r) => r.n)).toEqual([2]);
  });

  it('sends the statements of one turn together, in order: each gets its own answer, and a value that cannot be copied fails alone', async () => {
    const thread = await PGliteThread.start();
    try {
      const owner = {};
      const all = await Promise.allSettled([
        thread.query(owner, 'create temp table seq (n int)', []),
        thread.query(owner, 'insert into seq values ($1)', [1]),
        thread.query(owner, 'select 1/0', []),
        thread.query(owner, 'insert into seq values ($1)', [() => 3]),
        thread.query(owner, 'insert into seq values ($1)', [4]),
        thread.query(owner, 'select array_agg(n order by n) as ns from seq', []),
      ]);
      expect(all.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
      expect((all[2] as PromiseRejectedResult).reason).toMatchObject({ code: '22012' });
      expect(((all[3] as PromiseRejectedResult).reason as Error).name).toBe('DataCloneError');
      expect((all[5] as PromiseFulfilledResult<{ rows: unknown[] }>).value.rows).toEqual([{ ns: [1, 4] }]);
    } finally {
      await thread.close();
    }
  });

  it('keeps PostgreSQL error fields, and the session stays usable after a failed statement', async () => {
    const err = await sql`insert into t values (2)`.execute(handle.db).then(() => null, (e: unknown) => e as Error & { code?: string; constraint?: string });
    expect(err).toBeInstanceOf(Error);
    if (!err) return;
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('t_pkey');
    expect(err.stack).toContain('pglite-thread.test.ts');
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from t`.execute(handle.db);
    expect(rows[0]!.n).toBe(1);
  });

  it('forwards NOTIFY to listeners once the sending transaction commits', async () => {
    const heard: string[] = [];
    const unlisten = await handle.listen('pglite_thread_test', (p) => heard.push(p));
    await handle.db.transaction().execute(async (trx) => {
      await sql`select pg_notify('pglite_thread_test', 'first')`.execute(trx);
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(['first']);
    await unlisten();
    await sql`select pg_notify('pglite_thread_test', 'unheard')`.execute(handle.db);
    expect(heard).toEqual(['first']);
  });
});

describe('a process that owns the embedded database', () => {
  const start = (dataDir: string): { child: ChildProcess; next: () => Promise<Record<string, unknown>>; exited: Promise<number | null> } => {
    const child = fork(fileURLToPath(new URL('./fixtures/pglite-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'], env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const inbox: Record<string, unknown>[] = [];
    const waiters: ((m: Record<string, unknown>) => void)[] = [];
    child.on('message', (m: Record<string, unknown>) => (waiters.length ? waiters.shift()!(m) : inbox.push(m)));
    const next = () => (inbox.length ? Promise.resolve(inbox.shift()!) : new Promise<Record<string, unknown>>((r) => waiters.push(r)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, next, exited };
  };
  const committed = async (dataDir: string): Promise<number[]> => {
    const h = await connect({ dataDir });
    try {
      const { rows } = await sql<{ n: number }>`select n from acked order by n`.execute(h.db);
      return rows.map((r) => r.n);
    } finally {
      await h.close();
    }
  };

  it('keeps every acknowledged commit through kill -9', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-pglite-kill-'));
    try {
      const p = start(dataDir);
      expect(await p.next()).toEqual({ ready: true });
      for (let n = 1; n <= 20; n++) p.child.send({ insert: n });
      const acked: number[] = [];
      while (acked.length < 20) acked.push((await p.next()).committed as number);
      p.child.kill('SIGKILL');
      await p.exited;
      expect(await committed(dataDir)).toEqual(acked.sort((a, b) => a - b));
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('ends by itself once the database is closed, with its data on disk', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-pglite-close-'));
    try {
      const p = start(dataDir);
      expect(await p.next()).toEqual({ ready: true });
      p.child.send({ insert: 7 });
      expect(await p.next()).toEqual({ committed: 7 });
      p.child.send({ close: true });
      expect(await p.exited).toBe(0);
      expect(await committed(dataDir)).toEqual([7]);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
