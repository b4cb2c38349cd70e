import { createHash } from 'node:crypto';
import pg from 'pg';
import { sql, type RawBuilder } from 'kysely';

/*
 * Prepared statements for the few hot statements whose planning costs more than their
 * work (issue 13: the statement that files a delivery batch took 5.9 ms to plan and 6.1 to
 * run on the embedded database). Such a statement starts with `preparedAs(label)`; the pg
 * client on every connection (the pool's, and the embedded database thread's) then sends it
 * as a named statement: parsed and planned once per connection, after which PostgreSQL may
 * keep a generic plan. Only statements whose text does not vary with their input (arrays
 * for lists, never an IN list) should be marked: pg keeps every name it prepared for the
 * connection's life. The name carries a hash of the text, so two texts never share one.
 */
const MARK = /^\/\* prepared:([a-z0-9_]+) \*\//;

/** The leading comment that marks a statement for preparing. */
export function preparedAs(label: string): RawBuilder<unknown> {
  if (!/^[a-z0-9_]+$/.test(label)) throw new Error(`bad statement label ${label}`);
  return sql.raw(`/* prepared:${label} */ `);
}

const names = new Map<string, string | null>();

/** The statement's name when it is marked, else undefined. */
export function statementName(text: string): string | undefined {
  if (!text.startsWith('/* prepared:')) return undefined;
  let name = names.get(text);
  if (name === undefined) {
    const m = MARK.exec(text);
    name = m ? `mw_${m[1]}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}` : null;
    names.set(text, name);
  }
  return name ?? undefined;
}

/**
 * pg's Client, sending marked statements by name, each on a generic plan: PostgreSQL's default
 * would plan each of the first five executions with their values and keep doing so whenever
 * the generic plan's estimate looks dearer, which for the filing statement it did (1.8 ms a
 * mail filed with the generic plan, 2.3–2.6 without, on the embedded database). The setting
 * is made for the statement alone: for a session it would also apply to unnamed statements,
 * planning them without their values (an ON CONFLICT on a partial index then fails).
 * Inside a transaction that fails, its rollback undoes the SET as well.
 */
export class PreparingClient extends pg.Client {
  // pg's overloads are many; only a plain (text, values) call, Kysely's, is rewritten; every other form passes through.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const name = typeof text === 'string' && (values === undefined || Array.isArray(values)) && args.length <= 2 ? statementName(text) : undefined;
    const call = super.query as (...a: unknown[]) => Promise<unknown>;
    if (!name) return call.apply(this, args) as never;
    const run = async (): Promise<unknown> => {
      await call.call(this, 'SET plan_cache_mode = force_generic_plan');
      try {
        return await call.call(this, { name, text, values });
      } finally {
        await call.call(this, 'RESET plan_cache_mode').catch(() => undefined);
      }
    };
    return run() as never;
  }
}
