import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_FACTS, SessionCache, type KeptSession } from '../src/features/auth/session-cache.js';
import { watchWrites } from '../src/db/write-watch.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 13: sessions found live are kept per process (features/auth/session-cache.ts). What
// these tests hold it to: a change to what a session rests on ends it for the next request,
// whether this process made the change through Kysely or anyone made it in SQL (migration 040's
// notification), and a kept session never outlives its keeping or its own expiry.

const ok = (r: { code: number }) => r.code === 200;

/** Asks until the answer turns or 5 s pass; the notification arrives when the change commits, not on a timer. */
async function until(ask: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if (await ask()) return true;
    await new Promise((r) => setImmediate(r));
  }
  return false;
}

describe('kept sessions end when what they rest on changes', () => {
  let s: TestServer;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    ({ s, alice, bob } = await startDemo());
    const demo = await s.rt.services.db.selectFrom('domains').select(['id', 'company_id']).where('name', '=', 'demo.test').executeTakeFirstOrThrow();
    for (const name of ['carol', 'dave', 'erin', 'frank']) {
      await s.rt.services.companies.createUser({ companyId: demo.company_id, domainId: demo.id }, { email: `${name}@demo.test`, password: 'demo1234', name });
    }
  });
  afterAll(() => s.stop());

  const listOk = async (token: string) => ok(await s.get('/h5/mail/list', { mid: 0, page: 1, size: 5 }, token));
  const raw = () => s.rt.services.db;

  it('a session deleted in SQL (not through this process\'s Kysely) stops working, others go on', async () => {
    const token = await s.login('carol@demo.test');
    expect(await listOk(token)).toBe(true);
    expect(await listOk(token)).toBe(true);
    await sql`DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = 'carol@demo.test')`.execute(raw());
    expect(await until(async () => !(await listOk(token)))).toBe(true);
    expect(await listOk(alice)).toBe(true);
  });

  it('a session whose expiry is moved into the past stops working', async () => {
    const token = await s.login('carol@demo.test');
    expect(await listOk(token)).toBe(true);
    await sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE email = 'carol@demo.test')`.execute(raw());
    expect(await until(async () => !(await listOk(token)))).toBe(true);
  });

  it('a user disabled in SQL is signed out; a user of the same company is not', async () => {
    const token = await s.login('dave@demo.test');
    expect(await listOk(token)).toBe(true);
    await sql`UPDATE users SET status = 'disabled' WHERE email = 'dave@demo.test'`.execute(raw());
    expect(await until(async () => !(await listOk(token)))).toBe(true);
    expect(await listOk(bob)).toBe(true);
  });

  it('an admin whose role is taken away loses the console at once', async () => {
    const admin = await s.login('admin@demo.test');
    expect(ok(await s.get('/h5/admin/domains', {}, admin))).toBe(true);
    await sql`UPDATE users SET role = 'user' WHERE email = 'admin@demo.test'`.execute(raw());
    expect(await until(async () => (await s.get('/h5/admin/domains', {}, admin)).code === 403)).toBe(true);
    await sql`UPDATE users SET role = 'admin' WHERE email = 'admin@demo.test'`.execute(raw());
  });

  it('a write through this process\'s Kysely ends the session for its very next request', async () => {
    const token = await s.login('erin@demo.test');
    expect(await listOk(token)).toBe(true);
    await s.rt.services.db.updateTable('users').set({ status: 'disabled' }).where('email', '=', 'erin@demo.test').execute();
    expect(await listOk(token)).toBe(false);
  });

  // PostgreSQL only: PGlite's notifications come from its own thread, with no connection to lose.
  it.skipIf(!process.env.DATABASE_URL)('while the connection that hears changes is down, kept sessions are not used', async () => {
    const token = await s.login('frank@demo.test');
    expect(await listOk(token)).toBe(true);
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(raw());
    expect(await until(async () => !s.rt.services.events.listening)).toBe(true);
    // Nobody hears this change: the session must be asked of the database, not taken from memory.
    await sql`UPDATE users SET status = 'disabled' WHERE email = 'frank@demo.test'`.execute(raw());
    expect(await listOk(token)).toBe(false);
    expect(await listOk(alice)).toBe(true);
    expect(await until(async () => s.rt.services.events.listening)).toBe(true);
  });

  it('a suspended company\'s sessions stop working', async () => {
    expect(await listOk(alice)).toBe(true);
    await sql`UPDATE companies SET status = 'suspended' WHERE id = (SELECT company_id FROM users WHERE email = 'alice@demo.test')`.execute(raw());
    expect(await until(async () => !(await listOk(alice)))).toBe(true);
    await sql`UPDATE companies SET status = 'active' WHERE id = (SELECT company_id FROM users WHERE email = 'alice@demo.test')`.execute(raw());
    expect(await listOk(alice)).toBe(true);
  });
});

describe('which writes this process sees (db/write-watch.ts)', () => {
  let s: TestServer;
  beforeAll(async () => {
    ({ s } = await startDemo());
  });
  afterAll(() => s.stop());

  it('deletions and updates of a fact, nested ones too; not other columns, inserts or reads', async () => {
    let writes = 0;
    const db = s.rt.services.db.withPlugin(watchWrites(SESSION_FACTS, () => writes++));
    const alice = db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test');
    await db.updateTable('users').set({ language: 'en' }).where('email', '=', 'alice@demo.test').execute();
    await db.updateTable('sessions').set({ last_seen_at: new Date() }).where('user_id', '=', alice).execute();
    await db.selectFrom('sessions').selectAll().execute();
    expect(writes).toBe(0);
    await db.updateTable('users as u').set({ role: 'user' }).where('u.email', '=', 'nobody@demo.test').execute();
    expect(writes).toBe(1);
    await db.with('gone', (w) => w.deleteFrom('sessions').where('user_id', '=', -1).returning('id')).selectFrom('gone').selectAll().execute();
    expect(writes).toBe(2);
    await db.updateTable('companies').set({ status: 'active' }).where('id', '=', -1).execute();
    expect(writes).toBe(3);
    // Raw SQL text is not looked into: the database's notification (migration 040) covers it.
    await sql`UPDATE users SET status = status WHERE id = -1`.execute(db);
    expect(writes).toBe(3);
  });
});

describe('SessionCache', () => {
  const session = (over: Partial<KeptSession> = {}): KeptSession => ({
    sessionId: 1, userId: 10, email: 'a@x.test', companyId: 100, role: 'user', lastSeenAt: new Date(0), expiresAt: new Date(1_000_000), ...over,
  });

  it('keeps a session for its keeping time, and never past the session\'s expiry', () => {
    let now = 0;
    const c = new SessionCache({ active: () => true, ttlMs: 30_000, now: () => now });
    c.keep('long', session(), c.mark());
    c.keep('short', session({ expiresAt: new Date(5_000) }), c.mark());
    now = 4_999;
    expect(c.get('long')?.userId).toBe(10);
    expect(c.get('short')?.userId).toBe(10);
    now = 5_000;
    expect(c.get('short')).toBeUndefined();
    expect(c.get('long')).toBeDefined();
    now = 30_000;
    expect(c.get('long')).toBeUndefined();
  });

  it('does not keep an answer read before a forgetting', () => {
    const c = new SessionCache({ active: () => true, now: () => 0 });
    const since = c.mark();
    c.forgetUser(99);
    c.keep('t', session(), since);
    expect(c.get('t')).toBeUndefined();
  });

  it('forgets one user\'s or one company\'s sessions, or all', () => {
    const c = new SessionCache({ active: () => true, now: () => 0 });
    c.keep('a', session({ userId: 1, companyId: 100 }), c.mark());
    c.keep('b', session({ userId: 2, companyId: 100 }), c.mark());
    c.keep('c', session({ userId: 3, companyId: 200 }), c.mark());
    c.forgetUser(1);
    expect([c.get('a'), c.get('b'), c.get('c')].map(Boolean)).toEqual([false, true, true]);
    c.forgetCompany(100);
    expect([c.get('b'), c.get('c')].map(Boolean)).toEqual([false, true]);
    c.forgetAll();
    expect(c.size).toBe(0);
  });

  it('keeps nothing while notifications are not heard, and holds at most maxEntries', () => {
    let listening = false;
    const c = new SessionCache({ active: () => listening, maxEntries: 2, now: () => 0 });
    c.keep('a', session(), c.mark());
    expect(c.size).toBe(0);
    listening = true;
    for (const k of ['a', 'b', 'c']) c.keep(k, session(), c.mark());
    expect(c.size).toBe(2);
    expect(c.get('a')).toBeUndefined();
    listening = false;
    expect(c.get('c')).toBeUndefined();
  });
});
