import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startDemo, type TestServer } from './harness.js';

// Issue 13: SMTP's RCPT answer for a mailbox is kept 2 s per process (features/account/
// recipient-cache.ts). A mailbox disabled or deleted meanwhile, here straight in the database
// as another process would, must not get mail from the kept answer: the insert refuses it
// with a 4xx, and once the answer has expired RCPT refuses it with a 550.
let s: TestServer;
let t = 1_000_000;

beforeAll(async () => {
  ({ s } = await startDemo());
  s.rt.services.recipientClock.now = () => t;
});
afterAll(async () => {
  await s.stop();
});

const count = async (email: string) => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM messages m JOIN users u ON u.id = m.user_id WHERE u.email = ${email}`.execute(s.rt.services.db)).rows[0]?.n ?? 0);
const mailTo = (to: string, subject: string) => s.send({ from: 'x@outside.example', to, subject, text: 'hello' });

it('a mailbox disabled after its RCPT answer was kept gets no mail: 450 while kept, 550 after', async () => {
  const db = s.rt.services.db;
  const before = await count('alice@demo.test');
  await mailTo('alice@demo.test', 'first');
  expect(await count('alice@demo.test')).toBe(before + 1);

  await db.updateTable('users').set({ status: 'disabled' }).where('email', '=', 'alice@demo.test').execute();
  // Within the 2 s the RCPT answer comes from memory; the insert finds the user disabled.
  t += 1_000;
  await expect(mailTo('alice@demo.test', 'while kept')).rejects.toThrow(/450 4\.2\.1/);
  expect(await count('alice@demo.test')).toBe(before + 1);

  t += 2_000;
  await expect(mailTo('alice@demo.test', 'after')).rejects.toThrow(/550 5\.1\.1 <alice@demo\.test>: no such mailbox here/);
  expect(await count('alice@demo.test')).toBe(before + 1);

  // Active again: mail is taken at once (the refusal was not kept).
  await db.updateTable('users').set({ status: 'active' }).where('email', '=', 'alice@demo.test').execute();
  await mailTo('alice@demo.test', 'back');
  expect(await count('alice@demo.test')).toBe(before + 2);
});

it('a mailbox deleted after its RCPT answer was kept gets no mail, and its neighbours in the same mail are not filed either', async () => {
  const db = s.rt.services.db;
  const company = (await db.selectFrom('users').select('company_id').where('email', '=', 'bob@demo.test').executeTakeFirstOrThrow()).company_id;
  const hash = (await db.selectFrom('users').select('password_hash').where('email', '=', 'bob@demo.test').executeTakeFirstOrThrow()).password_hash;
  const domainId = (await db.selectFrom('domains').select('id').where('name', '=', 'demo.test').executeTakeFirstOrThrow()).id;
  const id = await s.rt.services.companies.createUser({ companyId: company, domainId }, { email: 'gone@demo.test', password: '', name: 'Gone' }, hash);
  expect(id).toBeGreaterThan(0);
  await mailTo('gone@demo.test', 'first');
  expect(await count('gone@demo.test')).toBe(1);
  const bobBefore = await count('bob@demo.test');

  await sql`DELETE FROM messages WHERE user_id = ${id}`.execute(db);
  await sql`DELETE FROM users WHERE id = ${id}`.execute(db);
  t += 500;
  await expect(s.send({ from: 'x@outside.example', to: ['gone@demo.test', 'bob@demo.test'], subject: 'while kept', text: 'hello' })).rejects.toThrow(/450 4\.2\.1/);
  expect(await count('bob@demo.test')).toBe(bobBefore);

  t += 2_500;
  const r = await s.send({ from: 'x@outside.example', to: ['gone@demo.test', 'bob@demo.test'], subject: 'after', text: 'hello' });
  expect(r.rejected).toEqual(['gone@demo.test']);
  expect(await count('bob@demo.test')).toBe(bobBefore + 1);
});
