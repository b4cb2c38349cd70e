import { afterAll, beforeAll, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { PLANNED_WITH, PreparingClient } from '../src/db/prepared.js';
import { PGliteStream } from '../src/db/pglite-stream.js';

// Issue 13: a marked statement is planned under PLANNED_WITH (db/prepared.ts), and no other
// statement may run under it (an unnamed statement planned generically cannot use a partial
// index for ON CONFLICT). Setting and resetting around every marked statement cost four
// statements more each; now a marked statement run on its own leaves the settings for the next
// one, and the first other statement resets them. These drive PreparingClient against the
// real database (PostgreSQL when DATABASE_URL is set, else PGlite behind the same wire
// protocol) and read what it sent off its socket.
const url = process.env.DATABASE_URL;
let lite: PGlite | undefined;
let client: PreparingClient;
let sent = '';

beforeAll(async () => {
  if (url) {
    client = new PreparingClient({ connectionString: url });
  } else {
    lite = new PGlite();
    await lite.waitReady;
    const db = lite;
    client = new PreparingClient({ user: 'postgres', database: 'postgres', stream: () => new PGliteStream(db) });
  }
  await client.connect();
  // Tapped once connected: a net.Socket's write is its own again after connect().
  const stream = (client as unknown as { connection: { stream: { write: (...a: unknown[]) => boolean } } }).connection.stream;
  const write = stream.write.bind(stream);
  stream.write = (chunk: unknown, ...rest: unknown[]) => {
    sent += Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk);
    return write(chunk, ...rest);
  };
}, 60_000);
afterAll(async () => {
  await client.end();
  await lite?.close();
});

/** The SETs and RESETs of PLANNED_WITH sent since the last call. */
function settingsSent(): { set: number; reset: number } {
  const [first] = PLANNED_WITH[0]!;
  const out = { set: sent.match(new RegExp(`(?<!RE)SET ${first} =`, 'g'))?.length ?? 0, reset: sent.match(new RegExp(`RESET ${first}`, 'g'))?.length ?? 0 };
  sent = '';
  return out;
}
/** PreparingClient.query's own type is pg's many overloads at once; these calls are all (text, values). */
const run = <R>(text: string, values: unknown[]) => client.query(text, values) as unknown as Promise<{ rows: R[] }>;
const marked = (n: number) => run<{ v: number; mode: string }>('/* prepared:t_settings */ SELECT $1::int + 1 AS v, current_setting(\'plan_cache_mode\') AS mode', [n]);
const show = async () => {
  const r = await run<{ mode: string; seqscan: string }>('SELECT current_setting(\'plan_cache_mode\') AS mode, current_setting(\'enable_seqscan\') AS seqscan', []);
  return r.rows[0]!;
};
const DEFAULTS = { mode: 'auto', seqscan: 'on' };

it('marked statements in a row set the planning settings once, and the next other statement runs without them', async () => {
  settingsSent();
  for (let i = 0; i < 3; i++) expect((await marked(i)).rows).toEqual([{ v: i + 1, mode: 'force_generic_plan' }]);
  expect(settingsSent()).toEqual({ set: 1, reset: 0 });
  expect(await show()).toEqual(DEFAULTS);
  expect(settingsSent()).toEqual({ set: 0, reset: 1 });
  // Reset once is enough for every other statement after it.
  expect(await show()).toEqual(DEFAULTS);
  expect(settingsSent()).toEqual({ set: 0, reset: 0 });
  // Each run of the marked statement was on its generic plan.
  const plans = await run('SELECT generic_plans::int AS g, custom_plans::int AS c FROM pg_prepared_statements WHERE name LIKE \'mw_t_settings_%\'', []);
  expect(plans.rows).toEqual([{ g: 3, c: 0 }]);
});

it('inside a transaction a marked statement sets and resets around itself, so neither commit nor rollback leaves the settings', async () => {
  for (const end of ['COMMIT', 'ROLLBACK']) {
    await marked(0);
    settingsSent();
    await run('BEGIN', []);
    expect(settingsSent()).toEqual({ set: 0, reset: 1 });
    expect((await marked(1)).rows[0]!.mode).toBe('force_generic_plan');
    expect(await show()).toEqual(DEFAULTS);
    expect((await marked(2)).rows[0]!.mode).toBe('force_generic_plan');
    expect(settingsSent()).toEqual({ set: 2, reset: 2 });
    await run(end, []);
    expect(await show()).toEqual(DEFAULTS);
    expect(settingsSent()).toEqual({ set: 0, reset: 0 });
  }
});

it('after a marked statement fails, in the database or in binding its values, other statements still run without the settings', async () => {
  await show();
  settingsSent();
  await expect(run('/* prepared:t_settings_fail */ SELECT 1 / $1::int AS v', [0])).rejects.toMatchObject({ code: '22012' });
  expect(await show()).toEqual(DEFAULTS);
  // Its failure undid its SETs; the next marked statement sets them again.
  expect((await marked(5)).rows[0]).toEqual({ v: 6, mode: 'force_generic_plan' });
  expect(settingsSent()).toEqual({ set: 2, reset: 1 });

  // A value pg cannot map ends the pipeline after the SETs, and its Sync commits them.
  await show();
  settingsSent();
  const unmappable = { toPostgres: () => { throw new Error('no value'); } };
  await expect(run('/* prepared:t_settings */ SELECT $1::int + 1 AS v, current_setting(\'plan_cache_mode\') AS mode', [unmappable])).rejects.toThrow('no value');
  expect(await show()).toEqual(DEFAULTS);
  expect(settingsSent()).toEqual({ set: 1, reset: 1 });
  expect((await marked(7)).rows[0]).toEqual({ v: 8, mode: 'force_generic_plan' });
});
