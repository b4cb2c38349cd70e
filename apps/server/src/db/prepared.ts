import { createHash } from 'node:crypto';
import pg from 'pg';
import { CompiledQuery, sql, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './types.js';

/*
 * Prepared statements for the few hot statements whose planning costs more than their
 * work (issue 13: the statement that files a delivery batch took 5.9 ms to plan and 6.1 to
 * run on the embedded database). Such a statement starts with `preparedAs(label)`; the pg
 * client on every connection (the pool's, and the embedded database thread's) then sends it
 * as a named statement: parsed and planned once per connection, after which PostgreSQL may
 * keep a generic plan. Only statements whose text does not vary with their input (arrays
 * for lists, never an IN list) should be marked: pg keeps every name it prepared for the
 * connection's life. The name carries a hash of the text, so two texts never share one.
 * A generic plan sees no values: a part whose best plan depends on them (LIMIT, OFFSET, a
 * folder that is most of a mailbox or none of it) must be planned apart, as the list's page
 * ids are (migration 034).
 */
const MARK = /^\/\* prepared:([a-z0-9_]+) \*\//;

/** The leading comment that marks a statement for preparing. */
export function preparedAs(label: string): RawBuilder<unknown> {
  return sql.raw(markOf(label));
}

function markOf(label: string): string {
  if (!/^[a-z0-9_]+$/.test(label)) throw new Error(`bad statement label ${label}`);
  return `/* prepared:${label} */ `;
}

/** Where a compiled statement's parameter comes from: the caller's argument i, or a value the query fixed. */
type Slot = { arg: number } | { value: unknown };

/**
 * A prepared statement whose Kysely query is built and compiled once per process, not on every
 * call (issue 13: building and compiling the list's two statements, the session and the page,
 * took about a sixth of a list request's CPU). `build` gets stand-ins for its arguments and
 * may only pass them into the query as values: a query whose shape depends on them (a branch,
 * an IN list, an inlined literal) cannot be compiled once, and is refused on its first call.
 */
export function preparedStatement<A extends unknown[], O>(label: string, build: (db: Kysely<Database>, ...args: A) => Compilable<O>) {
  let compiled: { sql: string; slots: Slot[] } | undefined;
  return async (db: Kysely<Database>, ...args: A): Promise<O[]> => {
    compiled ??= compileOnce(label, args, (values) => build(db, ...(values as A)).compile());
    const values = compiled.slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
    return (await db.executeQuery<O>(CompiledQuery.raw(compiled.sql, values))).rows;
  };
}

function compileOnce(label: string, args: unknown[], compile: (values: unknown[]) => { sql: string; parameters: readonly unknown[] }): { sql: string; slots: Slot[] } {
  // Stand-ins hold a NUL, which no value the query fixes itself does.
  const stand = args.map((_, i) => `\u0000arg${i}\u0000`);
  const c = compile(stand);
  const slots: Slot[] = c.parameters.map((p) => {
    const i = typeof p === 'string' ? stand.indexOf(p) : -1;
    return i >= 0 ? { arg: i } : { value: p };
  });
  const used = new Set(slots.flatMap((s) => ('arg' in s ? [s.arg] : [])));
  // Each argument must be a value of the query, and the first call's own query the same text:
  // an unused argument was inspected or inlined, a text that differs was shaped by a value.
  if (c.sql.includes('\u0000') || used.size !== args.length || compile(args).sql !== c.sql) {
    throw new Error(`statement ${label}: its text depends on its arguments, so it cannot be compiled once`);
  }
  return { sql: markOf(label) + c.sql, slots };
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

/** The parts of pg's wire connection a query drives (pg/lib/connection.js; not in @types/pg). */
interface WireConnection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(q: { text: string; name: string; types?: unknown[] }): void;
  bind(b: { portal: string; statement: string; values: unknown[]; binary?: boolean; valueMapper?: unknown }): void;
  describe(d: { type: 'P'; name: string }): void;
  execute(e: { portal: string; rows?: number }): void;
  close(c: { type: 'S'; name: string }): void;
  sync(): void;
  stream: { cork?: () => void; uncork?: () => void };
}
interface PgQueryInternals {
  name: string; text: string; values: unknown[]; types?: unknown[]; binary?: boolean; portal: string;
  hasBeenParsed(c: WireConnection): boolean;
  handleCommandComplete(msg: unknown, c: WireConnection): void;
  handleError(err: unknown, c: WireConnection): void;
}
// pg's own value mapping (what its Query binds with); not in @types/pg either.
const { prepareValue } = (pg as unknown as { utils?: { prepareValue: unknown } }).utils ?? {};
const PgQuery = pg.Query as unknown as new (config: object) => PgQueryInternals;

/** Runs a parameterless statement in the pipeline on the unnamed statement and portal. */
function runBare(c: WireConnection, text: string): void {
  c.parse({ text, name: '' });
  c.bind({ portal: '', statement: '', values: [] });
  c.execute({ portal: '' });
}

/** What a marked statement is planned under, [setting, value]: set before it and reset after it. */
export const PLANNED_WITH: readonly (readonly [string, string])[] = [
  ['plan_cache_mode', 'force_generic_plan'],
  // A generic plan is made once per connection and kept: on PostgreSQL until an ANALYZE
  // invalidates it, on PGlite (single-user, so no autovacuum) for the process's life. Made
  // while a new company's tables were small, the filing statement's Message-ID lookup was a
  // hash join over a full scan of mail_contents, for every delivered mail, for good (issue 13:
  // filing 8 mails went from 11 to 45 ms over ~3,400 deliveries on PGlite). These statements
  // find rows by key; with sequential scans priced out, their lookups go through an index
  // whatever the table sizes were at the moment they were planned.
  ['enable_seqscan', 'off'],
];

/**
 * A named statement on a generic plan, sent as one pipeline with one Sync:
 * Parse (first time only), the SETs of PLANNED_WITH unless the session has them already,
 * Bind/Describe/Execute, the RESETs when asked, Sync. One round trip, as an ordinary query
 * (issue 13: three round trips cost the list more than the planning they saved). Up to the
 * Sync it is one transaction: if the statement fails, the RESETs are skipped but the failed
 * transaction undoes the SETs as well; inside an explicit transaction its rollback does.
 */
class GenericPlanQuery extends PgQuery {
  private completes = 0;
  private readonly set: boolean;
  private readonly reset: boolean;

  constructor(config: Record<string, unknown> & { set: boolean; reset: boolean }) {
    super(config);
    this.set = config.set;
    this.reset = config.reset;
  }

  prepare(c: WireConnection): void {
    // The named Parse goes first: pg takes the first ParseComplete as this statement's.
    if (!this.hasBeenParsed(c)) {
      c.parse({ text: this.text, name: this.name, types: this.types });
      c.submittedNamedStatements[this.name] = this.text;
    }
    if (this.set) for (const [name, value] of PLANNED_WITH) runBare(c, `SET ${name} = ${value}`);
    try {
      c.bind({ portal: this.portal, statement: this.name, values: this.values, binary: this.binary, valueMapper: prepareValue });
    } catch (err) {
      // As pg does: a value it cannot map ends the pipeline here. The Sync commits any SET sent,
      // which PreparingClient allows for: after a failure the session may have the settings.
      c.sync();
      this.handleError(err, c);
      return;
    }
    c.describe({ type: 'P', name: this.portal });
    c.execute({ portal: this.portal });
    if (this.reset) for (const [name] of PLANNED_WITH) runBare(c, `RESET ${name}`);
    c.sync();
  }

  // A CommandComplete arrives for each SET, the statement and each RESET. Only the statement's is the result.
  override handleCommandComplete(msg: unknown, c: WireConnection): void {
    if (this.completes++ === (this.set ? PLANNED_WITH.length : 0)) super.handleCommandComplete(msg, c);
  }
}

const RESET_ALL = PLANNED_WITH.map(([name]) => `RESET ${name}`).join('; ');

/**
 * pg's Client, sending marked statements by name, each on a generic plan: PostgreSQL's default
 * would plan each of the first five executions with their values and keep doing so whenever
 * the generic plan's estimate looks dearer, which for the filing statement it did (1.8 ms a
 * mail filed with the generic plan, 2.3–2.6 without, on the embedded database). The settings
 * are the marked statements' alone: for other statements they would plan them without their
 * values (an ON CONFLICT on a partial index then fails) or without sequential scans.
 *
 * They are not set and reset around every marked statement, though (issue 13: the two SETs and
 * two RESETs were four statements more per marked one; without them PGlite's database thread
 * spent 1.01–1.10 ms of CPU per delivered mail instead of 1.14–1.39). A marked statement sent on an idle
 * connection outside a transaction leaves them set (its own implicit transaction commits them,
 * or a failure undoes them), so the next marked one sends none; the first other statement
 * after it is preceded by one RESET of both. Anything else (a transaction, a statement queued
 * behind another) sets and resets around the statement, as before, which leaves the session
 * as it found it whether the transaction commits or not.
 */
export class PreparingClient extends pg.Client {
  /** The session may have PLANNED_WITH set: another statement must reset it first. */
  private mayBePlanned = false;
  /** The session surely has PLANNED_WITH set: a marked statement need not set it. */
  private surelyPlanned = false;

  // pg's overloads are many; only a plain (text, values) call, Kysely's, is rewritten; every other form passes through.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const name = typeof text === 'string' && (values === undefined || Array.isArray(values)) && args.length <= 2 ? statementName(text) : undefined;
    const call = super.query as (...a: unknown[]) => unknown;
    if (!name) {
      if (this.mayBePlanned) {
        this.mayBePlanned = this.surelyPlanned = false;
        // Queued ahead of the statement; should it fail, so does the connection, and the statement with it.
        (call.call(this, RESET_ALL) as Promise<unknown>).catch(() => undefined);
      }
      return call.apply(this, args) as never;
    }
    // Nothing in flight and no transaction open: the statement is its own transaction, so what it sets stays set.
    const own = this.idle();
    const set = !(own && this.surelyPlanned);
    if (own) this.mayBePlanned = this.surelyPlanned = true;
    else this.surelyPlanned = false;
    return new Promise((resolve, reject) => {
      const callback = (err: unknown, res: unknown) => {
        // A failure in the database undid what it set; one in mapping a value did not (mayBePlanned stays).
        if (err && own) this.surelyPlanned = false;
        if (err) reject(err);
        else resolve(res);
      };
      call.call(this, new GenericPlanQuery({ name, text, values: values ?? [], set, reset: !own, callback }));
    }) as never;
  }

  // pg 8's own fields (not in @types/pg). Should a release rename them, this reads "not idle", and every
  // marked statement sets and resets around itself as it did before: slower, never wrong.
  private idle(): boolean {
    const self = this as unknown as { _activeQuery?: unknown; _queryQueue?: unknown[]; _txStatus?: string | null; readyForQuery?: boolean };
    return self.readyForQuery === true && !self._activeQuery && self._queryQueue?.length === 0 && self._txStatus === 'I';
  }
}
