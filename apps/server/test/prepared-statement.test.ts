import { expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { preparedStatement } from '../src/db/prepared.js';
import type { Database } from '../src/db/types.js';

// A statement compiled once (db/prepared.ts) must not depend on its arguments' values: these
// are the shapes that would, and each is refused on its first call instead of answering
// every later call with the first call's query. Kysely's own DummyDriver only builds; the
// statements that run on a real database are tested through the list and the login
// (mail-list-plan.test.ts, auth.test.ts).
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

it('refuses a query whose shape depends on an argument', async () => {
  const branch = preparedStatement('t_branch', (d, only: 'admin' | 'user') => {
    const q = d.selectFrom('users').select('id');
    return only === 'admin' ? q.where('role', '=', only) : q;
  });
  await expect(branch(db, 'user')).rejects.toThrow(/t_branch/);

  const inlined = preparedStatement('t_inline', (d, email: string) => d.selectFrom('users').select('id').where('email', '=', sql.lit(email)));
  await expect(inlined(db, 'a@b.test')).rejects.toThrow(/t_inline/);

  const list = preparedStatement('t_in', (d, ids: number[]) => d.selectFrom('users').select('id').where('id', 'in', ids));
  // An array as one value (= ANY) is fine; as an IN list its text grows with it.
  await expect(list(db, [1, 2])).rejects.toThrow(/t_in/);
});

it('takes a query that only passes its arguments in as values, with values of its own', async () => {
  const fine = preparedStatement('t_fine', (d, email: string, limit: number) =>
    d.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').limit(limit));
  expect(await fine(db, 'a@b.test', 5)).toEqual([]);
});
