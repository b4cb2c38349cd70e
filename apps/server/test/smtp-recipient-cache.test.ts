import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { rawSmtp, startDemo, type TestServer } from './harness.js';

// Issue 13: an SMTP connection keeps its RCPT answer for a mailbox 2 s for its next mails
// (features/account/recipient-cache.ts). A mailbox disabled or deleted meanwhile, here
// straight in the database as another process would, must not get mail from the kept
// answer: the insert refuses it with 450 4.2.1, and once the answer has expired RCPT
// refuses it with a 550. A new connection always asks the database.
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

type Io = Parameters<Parameters<typeof rawSmtp>[1]>[0];
/** One mail on an open connection: the replies to MAIL, each RCPT, and DATA's end (if any RCPT was taken). */
async function mail(io: Io, to: string[], subject: string): Promise<{ rcpt: string[]; data: string | null }> {
  io.send('MAIL FROM:<x@outside.example>');
  expect(await io.reply()).toMatch(/^250 /);
  const rcpt: string[] = [];
  for (const r of to) {
    io.send(`RCPT TO:<${r}>`);
    rcpt.push(await io.reply());
  }
  if (!rcpt.some((r) => r.startsWith('250'))) {
    io.send('RSET');
    expect(await io.reply()).toMatch(/^250 /);
    return { rcpt, data: null };
  }
  io.send('DATA');
  expect(await io.reply()).toMatch(/^354 /);
  io.sendRaw(`From: x@outside.example\r\nTo: ${to.join(', ')}\r\nSubject: ${subject}\r\n\r\nhello\r\n.\r\n`);
  return { rcpt, data: await io.reply() };
}
const session = (script: (io: Io) => Promise<void>) => rawSmtp(s.smtpPort, async (io) => {
  expect(await io.reply()).toMatch(/^220 /);
  io.send('EHLO client.example');
  expect(await io.reply()).toMatch(/^250/);
  await script(io);
});

it('a mailbox disabled after a connection kept its RCPT answer gets no mail: 450 while kept, 550 after, and mail again once active', async () => {
  const db = s.rt.services.db;
  const before = await count('alice@demo.test');
  await session(async (io) => {
    expect((await mail(io, ['alice@demo.test'], 'first')).data).toMatch(/^250 /);
    expect(await count('alice@demo.test')).toBe(before + 1);

    await db.updateTable('users').set({ status: 'disabled' }).where('email', '=', 'alice@demo.test').execute();
    // Within the 2 s the RCPT answer comes from memory; the insert finds the user disabled.
    t += 1_000;
    const kept = await mail(io, ['alice@demo.test'], 'while kept');
    expect(kept.rcpt).toEqual([expect.stringMatching(/^250 /)]);
    expect(kept.data).toMatch(/^450 4\.2\.1 /);
    expect(await count('alice@demo.test')).toBe(before + 1);

    t += 2_000;
    const after = await mail(io, ['alice@demo.test'], 'after');
    expect(after.rcpt).toEqual([expect.stringMatching(/^550 5\.1\.1 <alice@demo\.test>: no such mailbox here/)]);
    expect(await count('alice@demo.test')).toBe(before + 1);

    // Active again: taken at once on the same connection (the refusal was not kept).
    await db.updateTable('users').set({ status: 'active' }).where('email', '=', 'alice@demo.test').execute();
    expect((await mail(io, ['alice@demo.test'], 'back')).data).toMatch(/^250 /);
    expect(await count('alice@demo.test')).toBe(before + 2);
  });
});

it('a mailbox deleted after a connection kept its RCPT answer gets no mail, nor do the other recipients of that mail; a new connection asks afresh', async () => {
  const db = s.rt.services.db;
  const company = (await db.selectFrom('users').select('company_id').where('email', '=', 'bob@demo.test').executeTakeFirstOrThrow()).company_id;
  const hash = (await db.selectFrom('users').select('password_hash').where('email', '=', 'bob@demo.test').executeTakeFirstOrThrow()).password_hash;
  const domainId = (await db.selectFrom('domains').select('id').where('name', '=', 'demo.test').executeTakeFirstOrThrow()).id;
  const id = await s.rt.services.companies.createUser({ companyId: company, domainId }, { email: 'gone@demo.test', password: '', name: 'Gone' }, hash);
  const bobBefore = await count('bob@demo.test');
  await session(async (io) => {
    expect((await mail(io, ['gone@demo.test'], 'first')).data).toMatch(/^250 /);
    expect(await count('gone@demo.test')).toBe(1);

    await sql`DELETE FROM messages WHERE user_id = ${id}`.execute(db);
    await sql`DELETE FROM users WHERE id = ${id}`.execute(db);
    t += 500;
    const kept = await mail(io, ['gone@demo.test', 'bob@demo.test'], 'while kept');
    expect(kept.data).toMatch(/^450 4\.2\.1 /);
    expect(await count('bob@demo.test')).toBe(bobBefore);
  });
  // A new connection, within the 2 s: the database answers.
  await session(async (io) => {
    const fresh = await mail(io, ['gone@demo.test', 'bob@demo.test'], 'new connection');
    expect(fresh.rcpt[0]).toMatch(/^550 5\.1\.1 /);
    expect(fresh.data).toMatch(/^250 /);
  });
  expect(await count('bob@demo.test')).toBe(bobBefore + 1);
});
