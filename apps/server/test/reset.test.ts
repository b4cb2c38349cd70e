import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CodeSent, ResetTicket, ResetWays } from '@mailwing/shared';
import { startDemo, type Envelope, type TestServer } from './harness.js';
import { decoyWays } from '../src/features/security/mask.js';
import { hashPassword } from '../src/features/account/password.js';
import { clearLimits, codeFromInbox } from './security-helpers.js';

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
  // A known decoy secret makes the decoys of this file fixed (an installation makes a random one on first use).
  await s.rt.services.db.insertInto('app_keys').values({ name: 'reset-decoy', value: JSON.stringify({ secret: DECOY_SECRET }) }).execute();
  // Bob's reset ways: his backup address is alice's mailbox here, and a question.
  await s.rt.services.db.updateTable('users').set({ backup_email: 'alice@demo.test' }).where('email', '=', 'bob@demo.test').execute();
  const q = await s.post('/h5/setting/security-question', { password: 'demo1234', question: 'First school?', answer: '  Beijing No.4  Middle ' }, bob);
  expect(q.code).toBe(200);
});
afterAll(async () => {
  await s.stop();
});
afterEach(async () => clearLimits(s));

const DECOY_SECRET = 'a fixed decoy secret for tests';
const db = () => s.rt.services.db;
const ways = (email: string) => s.post<ResetWays>('/h5/login/resetway', { email });
const sendCode = (email: string) => s.post<CodeSent>('/h5/login/reset-code', { email });
const verifyCode = (email: string, code: string) => s.post<ResetTicket>('/h5/login/verify-reset', { email, way: 'email', code });
/** The shape of an answer without its values: which keys, which types, the code. */
const shape = (r: Envelope<unknown>) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'string' ? 'S' : typeof v === 'number' ? (v === r.code ? v : 'N') : v));

/** Unknown addresses whose decoy offers the e-mail way (most do), found deterministically. */
function decoyWithEmail(prefix: string): string {
  return Array.from({ length: 100 }, (_, i) => `${prefix}${i}@demo.test`).find((a) => decoyWays(DECOY_SECRET, a).ways.includes('email'))!;
}

describe('reset ways', () => {
  it('lists the ways of a real account: masked backup address and the question', async () => {
    expect(await ways('Bob@Demo.test')).toEqual({ code: 200, data: { ways: ['email', 'question'], backupEmail: 'a***@demo.test', question: 'First school?' } });
    expect(await ways('admin@demo.test')).toEqual({ code: 200, data: { ways: [] } });
  });

  it('answers "mail domain error" for a domain not hosted here', async () => {
    expect(await ways('someone@example.com')).toMatchObject({ code: 422, error: { email: 'mail domain error' } });
    expect((await sendCode('someone@example.com')).code).toBe(422);
    expect((await verifyCode('someone@example.com', '123456')).code).toBe(422);
  });

  it('answers an unknown address on a hosted domain deterministically and in the shape of a real account', async () => {
    const a = await ways('ghost@demo.test');
    expect(a.code).toBe(200);
    expect(await ways('ghost@demo.test')).toEqual(a);
    const addresses = Array.from({ length: 25 }, (_, i) => `nobody${i}@demo.test`);
    const answers = await Promise.all(addresses.map(ways));
    answers.forEach((r, i) => expect(r.data).toEqual(decoyWays(DECOY_SECRET, addresses[i]!)));
    // Most decoys show a masked backup address; some show no way at all, as real accounts without one.
    const withEmail = answers.filter((r) => r.data.ways.includes('email'));
    expect(withEmail.length).toBeGreaterThan(15);
    expect(withEmail.length).toBeLessThan(25);
    for (const r of withEmail) expect(r.data.backupEmail).toMatch(/^[a-z]\*\*\*@[a-z0-9.]+\.[a-z]+$/);
    for (const r of answers.filter((a) => a.data.ways.length === 0)) expect(r.data).toEqual({ ways: [] });
    // Reset ways of a real account with only a backup address have the same keys.
    await db().updateTable('users').set({ backup_email: 'someone@qq.com' }).where('email', '=', 'admin@demo.test').execute();
    expect(shape(await ways('admin@demo.test'))).toBe(shape(withEmail.find((r) => r.data.ways.length === 1)!));
    await db().updateTable('users').set({ backup_email: null }).where('email', '=', 'admin@demo.test').execute();
  });

  it('decoys offer a security question as often as real accounts may, so "question" marks nobody as real (finding 10)', async () => {
    const addresses = Array.from({ length: 200 }, (_, i) => `q${i}@demo.test`);
    const decoys = addresses.map((a) => decoyWays(DECOY_SECRET, a));
    expect(decoys.filter((d) => d.ways.includes('question')).length).toBeGreaterThan(20);
    for (const d of decoys.filter((x) => x.ways.includes('question'))) expect(d.question).toMatch(/\S/);
    const onlyQuestion = addresses[decoys.findIndex((d) => d.ways.length === 1 && d.ways[0] === 'question')]!;
    const bothAddress = addresses[decoys.findIndex((d) => d.ways.length === 2)]!;
    await clearLimits(s);
    expect((await ways(onlyQuestion)).data).toEqual(decoyWays(DECOY_SECRET, onlyQuestion));
    const both = await ways(bothAddress);
    expect(both.data.ways).toEqual(['email', 'question']);
    // A real account with a question and a backup address has the keys of a decoy with both.
    await db().updateTable('users').set({ backup_email: 'someone@qq.com', security_question: 'First school?', security_answer_hash: await hashPassword('x') }).where('email', '=', 'admin@demo.test').execute();
    expect(shape(await ways('admin@demo.test'))).toBe(shape(both));
    await db().updateTable('users').set({ backup_email: null, security_question: null, security_answer_hash: null }).where('email', '=', 'admin@demo.test').execute();
    // Answering a decoy's question is simply wrong.
    await clearLimits(s);
    expect(await s.post('/h5/login/verify-reset', { email: onlyQuestion, way: 'question', answer: 'anything' })).toMatchObject({ code: 403, error: 'The answer is incorrect.' });
  });

  it('limits lookups per address with 429 and retryAfter', async () => {
    for (let i = 0; i < 10; i++) expect((await ways('ghost@demo.test')).code).toBe(200);
    const r = await ways('ghost@demo.test');
    expect(r.code).toBe(429);
    expect(r.retryAfter).toBeGreaterThan(800);
  });
});

describe('no enumeration through reset-code and verify-reset', () => {
  it('answers a real account with a backup address and an unknown address alike, code by code', async () => {
    const ghost = decoyWithEmail('phantom');
    const real = await sendCode('bob@demo.test');
    const fake = await sendCode(ghost);
    expect(real.data).toEqual({ sent: true, resendIn: 60, to: 'a***@demo.test' });
    expect(fake.code).toBe(200);
    expect(shape(fake)).toBe(shape(real));
    expect(fake.data.to).toBe((await ways(ghost)).data.backupEmail);
    // A resend within 60 s: the same 429 for both.
    const realAgain = await sendCode('bob@demo.test');
    const fakeAgain = await sendCode(ghost);
    expect(realAgain.code).toBe(429);
    // The wait (and the sentence naming it) may differ by the second that passed between the calls.
    const timeless = (r: typeof realAgain) => ({ ...r, retryAfter: undefined, error: String(r.error).replace(/\d+ seconds/, 'N seconds') });
    expect(timeless(fakeAgain)).toEqual(timeless(realAgain));
    expect(fakeAgain.retryAfter).toBeGreaterThan(55);
    // Wrong codes: the same 403 four... five times, then the same 429.
    const { code } = await codeFromInbox(s, alice);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await verifyCode('bob@demo.test', wrong);
      const f = await verifyCode(ghost, wrong);
      expect(r).toMatchObject({ code: 403, error: 'The verification code is incorrect or has expired.' });
      expect(f).toEqual(r);
    }
    const r = await verifyCode('bob@demo.test', code);
    const f = await verifyCode(ghost, code);
    expect(r.code).toBe(429);
    expect(f).toEqual({ ...r, retryAfter: f.retryAfter });
    // A wrong answer to a question: the same for an account without one and an unknown address.
    await clearLimits(s);
    const noQuestion = await s.post('/h5/login/verify-reset', { email: 'admin@demo.test', way: 'question', answer: 'x' });
    expect(noQuestion).toMatchObject({ code: 403, error: 'The answer is incorrect.' });
    expect(await s.post('/h5/login/verify-reset', { email: ghost, way: 'question', answer: 'x' })).toEqual(noQuestion);
  });

  it('refuses a code to an account with no backup address, real or not, with the same words', async () => {
    const r = await sendCode('admin@demo.test');
    expect(r).toMatchObject({ code: 403, error: 'contact postmaster to reset' });
    const none = Array.from({ length: 100 }, (_, i) => `nobody${i}@demo.test`).find((a) => decoyWays(DECOY_SECRET, a).ways.length === 0)!;
    expect(await ways(none)).toEqual({ code: 200, data: { ways: [] } });
    expect(await sendCode(none)).toEqual(r);
  });
});

describe('resetting the password', () => {
  it('validates the input: six digits, a non-empty answer, matching passwords', async () => {
    for (const code of ['12345', '1234567', 'abcdef']) expect((await verifyCode('bob@demo.test', code)).error).toEqual({ code: 'must be six digits' });
    expect((await s.post('/h5/login/verify-reset', { email: 'bob@demo.test', way: 'email' })).error).toEqual({ code: 'code is empty' });
    expect(await s.post('/h5/login/verify-reset', { email: 'bob@demo.test', way: 'question', answer: '   ' })).toMatchObject({ code: 422, error: { answer: 'answer cannot be empty' } });
    const t = 'x'.repeat(43);
    expect((await s.post('/h5/login/resetpwd', { ticket: t, password: 'newpass123', confirm: 'newpass124' })).error).toEqual({ confirm: 'password empty or repeat mismatch' });
    expect((await s.post('/h5/login/resetpwd', { ticket: t, password: 'short', confirm: 'short' })).error).toEqual({ password: 'must be 8 to 128 characters' });
    expect(await s.post('/h5/login/resetpwd', { ticket: t, password: 'newpass123', confirm: 'newpass123' }))
      .toMatchObject({ code: 404, error: 'The password reset has expired. Please start again.', expired: true });
  });

  it('accepts the security answer whatever its case and spacing', async () => {
    expect((await s.post('/h5/login/verify-reset', { email: 'bob@demo.test', way: 'question', answer: 'beijing no.5 middle' })).code).toBe(403);
    const r = await s.post<ResetTicket>('/h5/login/verify-reset', { email: 'bob@demo.test', way: 'question', answer: 'BEIJING  no.4middle' });
    expect(r.code).toBe(200);
    expect(r.data.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A reset ticket lives 15 minutes.
    const row = await db().selectFrom('auth_tickets').select(['purpose', 'expires_at', 'created_at']).where('purpose', '=', 'reset').executeTakeFirstOrThrow();
    expect(Math.round((row.expires_at.getTime() - row.created_at.getTime()) / 60_000)).toBe(15);
    await db().updateTable('auth_tickets').set({ expires_at: new Date(Date.now() - 1000) }).where('purpose', '=', 'reset').execute();
    expect((await s.post('/h5/login/resetpwd', { ticket: r.data.ticket, password: 'newpass123', confirm: 'newpass123' })).code).toBe(404);
  });

  it('runs the whole flow: ways, code by mail, proof, new password; every old session ends and bindings into it go', async () => {
    const bobOther = await s.login('bob@demo.test');
    const ids = await db().selectFrom('users').select(['id', 'email']).execute();
    const id = (e: string) => ids.find((u) => u.email === e)!.id;
    await db().insertInto('mailbox_links').values([
      { user_id: id('alice@demo.test'), linked_user_id: id('bob@demo.test') },
      { user_id: id('bob@demo.test'), linked_user_id: id('alice@demo.test') },
    ]).execute();

    expect((await ways('bob@demo.test')).data.ways).toEqual(['email', 'question']);
    expect((await sendCode('bob@demo.test')).code).toBe(200);
    const { code, mail } = await codeFromInbox(s, alice);
    expect(mail.text).toContain('bob@demo.test');
    expect(mail.text).toContain('重置密码');
    const proof = await verifyCode('bob@demo.test', code);
    expect(proof.code).toBe(200);
    // The code is spent.
    expect((await verifyCode('bob@demo.test', code)).code).toBe(403);

    const done = await s.post('/h5/login/resetpwd', { ticket: proof.data.ticket, password: 'brand-new-pw', confirm: 'brand-new-pw' });
    expect(done).toEqual({ code: 200, data: {} });
    expect((await s.get('/h5/login/check', {}, bob)).code).toBe(401);
    expect((await s.get('/h5/login/check', {}, bobOther)).code).toBe(401);
    expect((await s.post('/h5/login/h5', { email: 'bob@demo.test', password: 'demo1234' })).code).toBe(403);
    const fresh = await s.login('bob@demo.test', 'brand-new-pw');
    expect((await s.get('/h5/login/check', {}, fresh)).code).toBe(200);
    // The ticket worked once.
    expect((await s.post('/h5/login/resetpwd', { ticket: proof.data.ticket, password: 'other-pw-123', confirm: 'other-pw-123' })).code).toBe(404);
    const links = await db().selectFrom('mailbox_links').selectAll().execute();
    expect(links.map((l) => [l.user_id, l.linked_user_id])).toEqual([[id('bob@demo.test'), id('alice@demo.test')]]);
    const hash = (await db().selectFrom('users').select('password_hash').where('email', '=', 'bob@demo.test').executeTakeFirstOrThrow()).password_hash;
    expect(hash).toMatch(/^scrypt\$/);
  });
});
