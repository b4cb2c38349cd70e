import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Account, CodeSent, RecoveryCodes, SecurityState, SessionResult, TotpSetup } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';
import { clearLimits, codeFromInbox, codeIn, enableTotp, forgetStep, totpCode, type Challenge } from './security-helpers.js';

let s: TestServer;
let alice: string;
let bob: string;
let secret: string;
let recovery: string[];

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});
afterEach(async () => clearLimits(s));

const db = () => s.rt.services.db;
const login = (email: string, password = 'demo1234') => s.post<Challenge>('/h5/login/h5', { email, password });
const secverify = (ticket: string, code: string, way = 'totp') => s.post<SessionResult>('/h5/login/secverify', { ticket, code, way });

async function challenge(email: string): Promise<Challenge> {
  const r = await login(email);
  expect(r.code).toBe(200);
  expect(r.data.verify).toBe(true);
  return r.data;
}

describe('turning the authenticator on', () => {
  it('needs the password, and gives a base32 secret with its otpauth URI', async () => {
    expect((await s.post('/h5/setting/totp-begin', { password: 'wrong' }, alice)).code).toBe(403);
    const r = await s.post<TotpSetup>('/h5/setting/totp-begin', { password: 'demo1234' }, alice);
    expect(r.code).toBe(200);
    expect(r.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(r.data.uri).toBe(`otpauth://totp/Mailwing:alice%40demo.test?issuer=Mailwing&secret=${r.data.secret}&algorithm=SHA1&digits=6&period=30`);
    expect(r.data).toMatchObject({ digits: 6, period: 30 });
    // Nothing is on until a code proves the app has the secret.
    expect((await s.get<SecurityState>('/h5/setting/security', {}, alice)).data.totp).toBe(false);
    expect('token' in (await login('alice@demo.test')).data).toBe(true);
  });

  it('accepts six digits only (spec §5), refuses a wrong code, and then returns ten single-use recovery codes once', async () => {
    const begin = await s.post<TotpSetup>('/h5/setting/totp-begin', { password: 'demo1234' }, alice);
    for (const code of ['12345', '1234567', 'abcdef', '']) {
      const r = await s.post('/h5/setting/totp-enable', { code }, alice);
      expect(r.code).toBe(422);
      expect(Object.keys(r.error as object)).toEqual(['code']);
    }
    const right = totpCode(begin.data.secret);
    const wrong = right === '000000' ? '111111' : '000000';
    expect((await s.post('/h5/setting/totp-enable', { code: wrong }, alice))).toMatchObject({ code: 403, error: 'The verification code is incorrect.' });
    const r = await s.post<RecoveryCodes>('/h5/setting/totp-enable', { code: right }, alice);
    expect(r.code).toBe(200);
    expect(r.data.codes).toHaveLength(10);
    for (const c of r.data.codes) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(new Set(r.data.codes).size).toBe(10);
    secret = begin.data.secret;
    recovery = r.data.codes;
    const stored = await db().selectFrom('recovery_codes').innerJoin('users', 'users.id', 'recovery_codes.user_id').select('code_hash')
      .where('users.email', '=', 'alice@demo.test').execute();
    expect(stored).toHaveLength(10);
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.code_hash) && !recovery.some((c) => row.code_hash.includes(c.replace('-', ''))))).toBe(true);
    const state = await s.get<SecurityState>('/h5/setting/security', {}, alice);
    expect(state.data).toEqual({ totp: true, recoveryLeft: 10, backupEmail: null, question: null });
    // The same pending secret cannot be enabled twice.
    expect((await s.post('/h5/setting/totp-enable', { code: right }, alice)).code).toBe(403);
  });
});

describe('login with second verification', () => {
  it('answers a right password with a ticket instead of a token, and a wrong one as before', async () => {
    const r = await challenge('alice@demo.test');
    expect(r.ways).toEqual(['totp', 'recovery']);
    expect(r.backupEmail).toBeUndefined();
    expect(r.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect('token' in r).toBe(false);
    expect((await login('alice@demo.test', 'nope')).code).toBe(403);
    // Only a hash of the ticket is kept.
    const rows = await db().selectFrom('auth_tickets').select('ticket_hash').execute();
    expect(rows.some((t) => t.ticket_hash === r.ticket)).toBe(false);
  });

  it('validates the code: six digits for totp and email, 422 naming the field', async () => {
    const { ticket } = await challenge('alice@demo.test');
    for (const code of ['12345', '1234567', 'abcdef']) {
      const r = await secverify(ticket, code);
      expect(r.code).toBe(422);
      expect(r.error).toEqual({ code: 'must be six digits' });
    }
    expect((await secverify(ticket, '')).error).toEqual({ code: 'code is empty' });
    expect((await s.post('/h5/login/secverify', { ticket: 'short', code: '123456' })).code).toBe(422);
  });

  it('opens a session with the right authenticator code, with the login\'s ip and user agent', async () => {
    const res = await fetch(`${s.base}/h5/login/h5`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'PhoneBrowser/1.0' },
      body: new URLSearchParams({ email: 'alice@demo.test', password: 'demo1234' }).toString(),
    });
    const { data } = (await res.json()) as { data: Challenge };
    await forgetStep(s, 'alice@demo.test');
    const r = await secverify(data.ticket, totpCode(secret));
    expect(r.code).toBe(200);
    expect(r.data.email).toBe('alice@demo.test');
    expect((await s.get<Account>('/h5/login/check', {}, r.data.token)).data.email).toBe('alice@demo.test');
    const session = await db().selectFrom('sessions').select(['user_agent', 'ip']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(session).toEqual({ user_agent: 'PhoneBrowser/1.0', ip: '127.0.0.1' });
    // A ticket works once.
    expect((await secverify(data.ticket, totpCode(secret))).code).toBe(404);
  });

  it('refuses a replayed code: a step that was accepted once is not accepted again', async () => {
    await forgetStep(s, 'alice@demo.test');
    const code = totpCode(secret);
    expect((await secverify((await challenge('alice@demo.test')).ticket, code)).code).toBe(200);
    const again = await secverify((await challenge('alice@demo.test')).ticket, code);
    expect(again).toMatchObject({ code: 403, error: 'This code has already been used. Wait for the next code from your authenticator.' });
    // An older step inside the ±1 window is no better.
    expect((await secverify((await challenge('alice@demo.test')).ticket, totpCode(secret, Date.now() - 30_000))).code).toBe(403);
  });

  it('accepts a recovery code once, typed in any case and with or without the dash', async () => {
    const code = recovery[0]!;
    const r = await secverify((await challenge('alice@demo.test')).ticket, ` ${code.replace('-', '').toUpperCase()} `, 'recovery');
    expect(r.code).toBe(200);
    const again = await secverify((await challenge('alice@demo.test')).ticket, code, 'recovery');
    expect(again).toMatchObject({ code: 403, error: 'The recovery code is incorrect or has already been used.' });
    expect((await s.get<SecurityState>('/h5/setting/security', {}, alice)).data.recoveryLeft).toBe(9);
    expect((await secverify((await challenge('alice@demo.test')).ticket, 'not-a-code', 'recovery')).code).toBe(403);
  });

  it('answers an expired ticket with 404 and its own message', async () => {
    const { ticket } = await challenge('alice@demo.test');
    await db().updateTable('auth_tickets').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    await forgetStep(s, 'alice@demo.test');
    const r = await secverify(ticket, totpCode(secret));
    expect(r).toMatchObject({ code: 404, error: 'The verification has expired. Please log in again.', expired: true });
    expect(await secverify('x'.repeat(43), totpCode(secret))).toEqual(r);
  });

  it('kills a ticket after five wrong codes: 403 four times, then 429, and the right code no longer helps', async () => {
    const { ticket } = await challenge('alice@demo.test');
    const wrong = totpCode(secret) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect(await secverify(ticket, wrong)).toMatchObject({ code: 403, error: 'The verification code is incorrect.' });
    expect(await secverify(ticket, wrong)).toMatchObject({ code: 429, error: 'Too many wrong codes. Please log in again.' });
    await forgetStep(s, 'alice@demo.test');
    expect((await secverify(ticket, totpCode(secret))).code).toBe(429);
  });

  it('limits wrong codes per account across tickets with 429 and retryAfter', async () => {
    const wrong = totpCode(secret) === '000000' ? '111111' : '000000';
    for (let t = 0; t < 2; t++) {
      const { ticket } = await challenge('alice@demo.test');
      for (let i = 0; i < 5; i++) await secverify(ticket, wrong);
    }
    await forgetStep(s, 'alice@demo.test');
    const r = await secverify((await challenge('alice@demo.test')).ticket, totpCode(secret));
    expect(r.code).toBe(429);
    expect(r.retryAfter).toBeGreaterThan(800);
    expect(r.retryAfter).toBeLessThanOrEqual(900);
  });
});

describe('codes by e-mail', () => {
  it('confirms a hosted backup address with a code read from its real Inbox, then offers the e-mail way at login', async () => {
    expect((await s.post('/h5/setting/backup-email-code', { email: 'bob@demo.test', password: 'bad' }, alice)).code).toBe(403);
    expect((await s.post('/h5/setting/backup-email-code', { email: 'alice@demo.test', password: 'demo1234' }, alice)).code).toBe(422);
    expect((await s.post('/h5/setting/backup-email-code', { email: 'nobody@demo.test', password: 'demo1234' }, alice)).error).toEqual({ email: 'no such mailbox' });
    const sent = await s.post<CodeSent>('/h5/setting/backup-email-code', { email: 'bob@demo.test', password: 'demo1234' }, alice);
    expect(sent).toEqual({ code: 200, data: { sent: true, resendIn: 60, to: 'b***@demo.test' } });
    const again = await s.post('/h5/setting/backup-email-code', { email: 'bob@demo.test', password: 'demo1234' }, alice);
    expect(again.code).toBe(429);
    expect(again.retryAfter).toBeGreaterThan(55);
    expect(again.retryAfter).toBeLessThanOrEqual(60);

    const { code, mail } = await codeFromInbox(s, bob);
    expect(mail.from).toEqual({ name: 'Mailwing', address: 'postmaster@demo.test' });
    expect(mail.text).toContain(`验证码：${code}`);
    expect(mail.text).toContain('alice@demo.test');
    for (const bad of ['12345', '1234567', 'abcdef']) expect((await s.post('/h5/setting/backup-email', { email: 'bob@demo.test', code: bad }, alice)).code).toBe(422);
    // The code is for the address it was sent to.
    expect((await s.post('/h5/setting/backup-email', { email: 'admin@demo.test', code }, alice)).code).toBe(403);
    const r = await s.post<SecurityState>('/h5/setting/backup-email', { email: 'bob@demo.test', code }, alice);
    expect(r.code).toBe(200);
    expect(r.data.backupEmail).toBe('b***@demo.test');

    const c = await challenge('alice@demo.test');
    expect(c.ways).toEqual(['totp', 'recovery', 'email']);
    expect(c.backupEmail).toBe('b***@demo.test');
  });

  it('signs in with a code mailed to the backup address; a resend within 60 s is refused', async () => {
    const { ticket } = await challenge('alice@demo.test');
    const sent = await s.post<CodeSent>('/h5/login/sec-email-code', { ticket });
    expect(sent).toEqual({ code: 200, data: { sent: true, resendIn: 60, to: 'b***@demo.test' } });
    const again = await s.post('/h5/login/sec-email-code', { ticket });
    expect(again.code).toBe(429);
    expect(again.retryAfter).toBeGreaterThan(0);
    const { code } = await codeFromInbox(s, bob);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await secverify(ticket, wrong, 'email')).toMatchObject({ code: 403, error: 'The verification code is incorrect or has expired.' });
    const r = await secverify(ticket, code, 'email');
    expect(r.code).toBe(200);
    expect(r.data.email).toBe('alice@demo.test');
    // Spent with its ticket.
    expect((await secverify((await challenge('alice@demo.test')).ticket, code, 'email')).code).toBe(403);
  });

  it('queues the code mail to an outside address in the outbox, signed, From postmaster of the domain', async () => {
    const sent = await s.post<CodeSent>('/h5/setting/backup-email-code', { email: 'carol@example.com', password: 'demo1234' }, bob);
    expect(sent.data).toEqual({ sent: true, resendIn: 60, to: 'c***@example.com' });
    const job = await db().selectFrom('outbox').selectAll().where('rcpt', '=', 'carol@example.com').executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'queued', message_id: null, sender_id: null, mail_from: 'postmaster@demo.test' });
    const raw = await s.rt.services.blobs.get(job.blob_hash!);
    const parsed = await simpleParser(raw);
    expect(parsed.headers.get('dkim-signature')).toBeTruthy();
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(parsed.from?.value[0]?.address).toBe('postmaster@demo.test');
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]?.address : '').toBe('carol@example.com');
    const code = codeIn(parsed.text ?? '')!;
    expect(parsed.text).toContain(`验证码：${code}`);
    const r = await s.post<SecurityState>('/h5/setting/backup-email', { email: 'carol@example.com', code }, bob);
    expect(r.data.backupEmail).toBe('c***@example.com');
    // The blob is kept by the queued job alone; the collector leaves it.
    await s.rt.services.blobs.collect();
    expect(await s.rt.services.blobs.has(job.blob_hash!)).toBe(true);
    // Once delivered, nothing needs it: the collector takes it (this threw on the outbox's foreign
    // key, and failed whatever request ran the collector), and the job stays as the record.
    await db().updateTable('outbox').set({ status: 'sent' }).where('id', '=', job.id).execute();
    expect(await s.rt.services.blobs.collect()).toBeGreaterThanOrEqual(1);
    expect(await s.rt.services.blobs.has(job.blob_hash!)).toBe(false);
    expect(await db().selectFrom('outbox').select(['status', 'blob_hash']).where('id', '=', job.id).executeTakeFirstOrThrow()).toEqual({ status: 'sent', blob_hash: null });
    // Removing the backup address needs the password.
    expect((await s.post('/h5/setting/backup-email', { email: '', password: 'bad' }, bob)).code).toBe(403);
    expect((await s.post<SecurityState>('/h5/setting/backup-email', { email: '', password: 'demo1234' }, bob)).data.backupEmail).toBeNull();
  });
});

describe('binding another mailbox that has second verification on', () => {
  it('verifies a bind ticket through secverify and hands the link to the registered hook', async () => {
    const seen: unknown[] = [];
    s.rt.services.verify.onBindVerified(async (b) => {
      seen.push(b);
      return { token: 'linked-session-token', email: b.linkedEmail };
    });
    const bobId = (await db().selectFrom('users').select('id').where('email', '=', 'bob@demo.test').executeTakeFirstOrThrow()).id;
    const bobSession = await db().selectFrom('sessions').select('id').where('user_id', '=', bobId).orderBy('id').executeTakeFirstOrThrow();
    const aliceRow = await db().selectFrom('users').selectAll().where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow();
    const c = await s.rt.services.verify.challenge(aliceRow, 'bind', { ip: '10.0.0.9', userAgent: 'Binder' }, bobSession.id);
    expect(c?.ways).toEqual(['totp', 'recovery', 'email']);
    await forgetStep(s, 'alice@demo.test');
    const r = await secverify(c!.ticket, totpCode(secret));
    expect(r).toEqual({ code: 200, data: { token: 'linked-session-token', email: 'alice@demo.test' } });
    expect(seen).toEqual([{ ownerUserId: bobId, sessionId: bobSession.id, linkedUserId: aliceRow.id, linkedEmail: 'alice@demo.test', client: { ip: '10.0.0.9', userAgent: 'Binder' } }]);
    // A user without an authenticator needs no challenge.
    const bobRow = await db().selectFrom('users').selectAll().where('id', '=', bobId).executeTakeFirstOrThrow();
    expect(await s.rt.services.verify.challenge(bobRow, 'bind', { ip: '', userAgent: '' }, bobSession.id)).toBeNull();
  });
});

describe('turning the authenticator off and new recovery codes', () => {
  it('needs the password for both; new codes replace the old; off means the password alone logs in', async () => {
    expect((await s.post('/h5/setting/recovery-codes', { password: 'bad' }, alice)).code).toBe(403);
    const fresh = await s.post<RecoveryCodes>('/h5/setting/recovery-codes', { password: 'demo1234' }, alice);
    expect(fresh.data.codes).toHaveLength(10);
    expect((await secverify((await challenge('alice@demo.test')).ticket, recovery[1]!, 'recovery')).code).toBe(403);
    expect((await s.get<SecurityState>('/h5/setting/security', {}, alice)).data.recoveryLeft).toBe(10);
    expect((await s.post('/h5/setting/totp-disable', { password: 'bad' }, alice)).code).toBe(403);
    expect((await s.post('/h5/setting/totp-disable', { password: 'demo1234' }, alice)).code).toBe(200);
    expect((await s.get<SecurityState>('/h5/setting/security', {}, alice)).data).toMatchObject({ totp: false, recoveryLeft: 0 });
    expect('token' in (await login('alice@demo.test')).data).toBe(true);
    expect((await s.post('/h5/setting/recovery-codes', { password: 'demo1234' }, alice)).code).toBe(403);
  });

  it('limits wrong passwords in settings per account with 429', async () => {
    const { secret: bobSecret } = await enableTotp(s, bob, 'bob@demo.test');
    expect(bobSecret).toMatch(/^[A-Z2-7]+$/);
    for (let i = 0; i < 5; i++) expect((await s.post('/h5/setting/totp-disable', { password: `bad${i}` }, bob)).code).toBe(403);
    const r = await s.post('/h5/setting/totp-disable', { password: 'demo1234' }, bob);
    expect(r.code).toBe(429);
    expect(r.retryAfter).toBeGreaterThan(0);
  });
});
