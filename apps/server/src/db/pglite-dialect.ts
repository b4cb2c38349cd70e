import {
  CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult, type TransactionSettings,
} from 'kysely';
import type { PGliteThread } from './pglite-thread.js';

/** Kysely over the PGlite thread (pglite-thread.ts): PostgreSQL's SQL, one session shared by turns. */
export class PGliteThreadDialect implements Dialect {
  constructor(private readonly thread: PGliteThread) {}
  createAdapter() { return new PostgresAdapter(); }
  createDriver(): Driver { return new PGliteThreadDriver(this.thread); }
  createQueryCompiler() { return new PostgresQueryCompiler(); }
  createIntrospector(db: Kysely<unknown>) { return new PostgresIntrospector(db); }
}

class PGliteThreadConnection implements DatabaseConnection {
  constructor(private readonly thread: PGliteThread) {}

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const { command, rowCount, rows } = await this.thread.query(this, q.sql, q.parameters);
      const changed = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
      return { numAffectedRows: changed ? BigInt(rowCount ?? 0) : undefined, rows: rows as R[] };
    } catch (err) {
      // The error was made when the worker's reply arrived; give it the caller's stack instead.
      if (err instanceof Error) err.stack = new Error(err.message).stack;
      throw err;
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on the embedded database');
  }
}

class PGliteThreadDriver implements Driver {
  constructor(private readonly thread: PGliteThread) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteThreadConnection(this.thread);
  }

  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.thread.lock(c);
    let begin = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      begin = 'start transaction';
      if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) begin += ` ${settings.accessMode}`;
    }
    await c.executeQuery(CompiledQuery.raw(begin));
  }

  // A failed COMMIT keeps the session: Kysely sends ROLLBACK next, which must not land in
  // another caller's transaction. releaseConnection frees it in every case.
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('commit'));
    this.thread.unlock(c);
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    if (!this.thread.owns(c)) return;
    try {
      await c.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      this.thread.unlock(c);
    }
  }

  async releaseConnection(c: DatabaseConnection): Promise<void> {
    this.thread.unlock(c);
  }

  async destroy(): Promise<void> {
    await this.thread.close();
  }
}
