import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WestChallenge, WestMe, WestSession } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';
import { clearLimits, codeFromInbox, totpCode } from './security-helpers.js';
import { solveCaptcha, westLogin } from './west-helpers.js';

// The shared machine is slow at times; a boot can take minutes under load.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => s.stop());
afterEach(async () => {
  await clearLimits(s);
  s.rt.services.westClock.now = () => new Date();
});

const db = () => s.rt.services.db;
const later = (ms: number) => { const t = Date.now() + ms; s.rt.services.westClock.now = () => new Date(t); };
const forgetResend = (email: string) => db().updateTable('west_codes' as never).set({ sent_at: new Date(0) } as never).where('address' as never, '=', email as never).execute();

describe('register', () => {
  it('needs a solved captcha, once', async () => {
    expect(await s.post('/h5/west/register-code', { email: 'alice@demo.test', captcha: 'bm9wZQ==' })).toMatchObject({ code: 422, reason: 'west.captcha_invalid' });
    const payload = await solveCaptcha(s);
    expect((await s.post('/h5/west/register-code', { email: 'alice@demo.test', captcha: payload })).code).toBe(200);
    expect(await s.post('/h5/west/register-code', { email: 'bob@demo.test', captcha: payload })).toMatchObject({ code: 422, reason: 'west.captcha_invalid' });
  });

  it('registers with the mailed code, refuses the agreement unticked, and the session is a west one only', async () => {
    await forgetResend('alice@demo.test');
    await s.post('/h5/west/register-code', { email: 'alice@demo.test', captcha: await solveCaptcha(s) });
    const { code } = await codeFromInbox(s, alice);
    expect((await s.post('/h5/west/register', { email: 'alice@demo.test', password: 'store-pass-1', code, agree: 0 })).code).toBe(422);
    const r = await s.post<WestSession>('/h5/west/register', { email: 'alice@demo.test', password: 'store-pass-1', code, agree: 1 });
    expect(r.code).toBe(200);
    // Single use.
    expect((await s.post('/h5/west/register', { email: 'alice@demo.test', password: 'store-pass-1', code, agree: 1 })).code).toBe(422);
    const me = await s.get<WestMe>('/h5/west/me', {}, r.data.token);
    expect(me.data).toMatchObject({ email: 'alice@demo.test', balanceCents: 0 });
    // Realms: the west token opens no mailbox, and a mailbox token opens no west route.
    expect((await s.get('/h5/mbox/index', {}, r.data.token)).code).toBe(401);
    expect((await s.get('/h5/west/me', {}, alice)).code).toBe(401);
    expect((await s.get('/h5/west/me')).code).toBe(401);
  });

  it('answers alike for a registered address and sends its owner no code', async () => {
    await forgetResend('alice@demo.test');
    const a = await s.post('/h5/west/register-code', { email: 'alice@demo.test', captcha: await solveCaptcha(s) });
    const b = await s.post('/h5/west/register-code', { email: 'bob@demo.test', captcha: await solveCaptcha(s) });
    expect(a).toEqual(b);
    // Alice's mailbox got the "already registered" note, without a code in it.
    await expect(codeFromInbox(s, alice)).rejects.toThrow(/already has an account/);
    const again = await s.post('/h5/west/register-code', { email: 'alice@demo.test', captcha: await solveCaptcha(s) });
    expect(again).toMatchObject({ code: 429, reason: 'west.code_too_soon' });
    const bobAgain = await s.post('/h5/west/register-code', { email: 'bob@demo.test', captcha: await solveCaptcha(s) });
    expect(bobAgain).toMatchObject({ code: 429, reason: 'west.code_too_soon' });
  });

  it('a code expires after 10 minutes, and 5 wrong tries lock it', async () => {
    await forgetResend('bob@demo.test');
    await s.post('/h5/west/register-code', { email: 'bob@demo.test', captcha: await solveCaptcha(s) });
    const { code } = await codeFromInbox(s, bob);
    later(10 * 60_000 + 1_000);
    expect(await s.post('/h5/west/register', { email: 'bob@demo.test', password: 'store-pass-1', code, agree: 1 })).toMatchObject({ code: 422, reason: 'west.code_invalid' });
    s.rt.services.westClock.now = () => new Date();
    await forgetResend('bob@demo.test');
    await s.post('/h5/west/register-code', { email: 'bob@demo.test', captcha: await solveCaptcha(s) });
    const fresh = (await codeFromInbox(s, bob)).code;
    const wrong = fresh === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await s.post('/h5/west/register', { email: 'bob@demo.test', password: 'store-pass-1', code: wrong, agree: 1 })).code).toBe(422);
    expect((await s.post('/h5/west/register', { email: 'bob@demo.test', password: 'store-pass-1', code: fresh, agree: 1 })).code).toBe(422);
  });

  it('sends at most 5 codes an hour per address', async () => {
    const email = 'nobody-here@demo.test';
    for (let i = 0; i < 5; i++) {
      await forgetResend(email);
      expect((await s.post('/h5/west/register-code', { email, captcha: await solveCaptcha(s) })).code).toBe(200);
    }
    await forgetResend(email);
    expect(await s.post('/h5/west/register-code', { email, captcha: await solveCaptcha(s) })).toMatchObject({ code: 429 });
  });
});

describe('login', () => {
  it('password, then the mailed code; wrong password and unknown address look alike', async () => {
    const bad = await s.post('/h5/west/login', { email: 'alice@demo.test', password: 'nope-nope' });
    const unknown = await s.post('/h5/west/login', { email: 'ghost@demo.test', password: 'nope-nope' });
    expect(bad).toEqual(unknown);
    expect(bad).toMatchObject({ code: 422, reason: 'west.bad_credentials' });
    await forgetResend('alice@demo.test');
    const token = await westLogin(s, 'alice@demo.test', alice);
    expect((await s.get<WestMe>('/h5/west/me', {}, token)).data.email).toBe('alice@demo.test');
    expect((await s.post('/h5/west/logout', {}, token)).code).toBe(200);
    expect((await s.get('/h5/west/me', {}, token)).code).toBe(401);
  });

  it('limits wrong passwords per account', async () => {
    for (let i = 0; i < 5; i++) expect((await s.post('/h5/west/login', { email: 'alice@demo.test', password: `wrong-${i}` })).code).toBe(422);
    expect((await s.post('/h5/west/login', { email: 'alice@demo.test', password: 'store-pass-1' })).code).toBe(429);
  });

  it('an authenticator replaces the mailed code', async () => {
    await forgetResend('alice@demo.test');
    const token = await westLogin(s, 'alice@demo.test', alice);
    const begin = await s.post<{ secret: string }>('/h5/west/totp-begin', {}, token);
    expect((await s.post('/h5/west/totp-enable', { code: totpCode(begin.data.secret) }, token)).code).toBe(200);
    const c = await s.post<WestChallenge>('/h5/west/login', { email: 'alice@demo.test', password: 'store-pass-1' });
    expect(c.data.way).toBe('totp');
    // The step used to enable is spent; the next one is accepted.
    later(30_000);
    const r = await s.post<WestSession>('/h5/west/login-verify', { ticket: c.data.ticket, code: totpCode(begin.data.secret, Date.now() + 30_000) });
    expect(r.code).toBe(200);
  });

  it('the personal centre sets the authenticator up from its otpauth URI, and turns it off only with a current code', async () => {
    const secret = (await db().selectFrom('customers' as never).select('totp_secret' as never).where('email' as never, '=', 'alice@demo.test' as never)
      .executeTakeFirstOrThrow() as { totp_secret: string }).totp_secret;
    // Each step is spent once: the previous test used the one 30 s ahead, so this one works further on.
    const at = (ms: number) => { later(ms); return totpCode(secret, Date.now() + ms); };
    const c = await s.post<WestChallenge>('/h5/west/login', { email: 'alice@demo.test', password: 'store-pass-1' });
    const token = (await s.post<WestSession>('/h5/west/login-verify', { ticket: c.data.ticket, code: at(60_000) })).data.token;
    expect((await s.get<WestMe>('/h5/west/me', {}, token)).data.totp).toBe(true);

    // A new setup (begin) carries the secret in the Key Uri Format an authenticator scans; it replaces nothing until enabled.
    const begin = await s.post<{ secret: string; uri: string }>('/h5/west/totp-begin', {}, token);
    const uri = new URL(begin.data.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(begin.data.secret);
    expect(uri.searchParams.get('issuer')).toBe('Mailwing');
    expect(decodeURIComponent(uri.pathname)).toContain('alice@demo.test');

    // Off needs a code of the authenticator in use: a wrong one, or the pending secret's, is refused.
    expect(await s.post('/h5/west/totp-disable', { code: totpCode(secret, Date.now() - 3_600_000) }, token)).toMatchObject({ code: 422, reason: 'west.code_invalid' });
    expect((await s.post('/h5/west/totp-disable', { code: totpCode(begin.data.secret, Date.now() + 90_000) }, token)).code).toBe(422);
    // The step already spent at login cannot be replayed either.
    expect((await s.post('/h5/west/totp-disable', { code: totpCode(secret, Date.now() + 60_000) }, token)).code).toBe(422);
    const off = await s.post<WestMe>('/h5/west/totp-disable', { code: at(90_000) }, token);
    expect(off.code).toBe(200);
    expect(off.data.totp).toBe(false);
    await forgetResend('alice@demo.test');
    expect((await s.post<WestChallenge>('/h5/west/login', { email: 'alice@demo.test', password: 'store-pass-1' })).data.way).toBe('email');
  });
});

describe('profile', () => {
  it('applies the spec §5 name rules', async () => {
    // The demo seed's storefront customer (admin@demo.test / demo1234, README).
    const token = await westLogin(s, 'admin@demo.test', await s.login('admin@demo.test'), 'demo1234');
    expect((await s.post('/h5/west/profile', { nameKind: 'zh', firstName: '小明', lastName: '王', city: '北京', zip: '100000' }, token)).code).toBe(200);
    expect((await s.post('/h5/west/profile', { nameKind: 'en', firstName: 'J', lastName: 'Smith', city: 'Shanghai', zip: '200000' }, token)).code).toBe(422);
    expect((await s.post('/h5/west/profile', { nameKind: 'zh', firstName: '小明明明明明明明明明明', lastName: '王', city: '北京', zip: '100000' }, token)).code).toBe(422);
    expect((await s.post('/h5/west/profile', { nameKind: 'en', firstName: 'Mary Ann', lastName: 'Smith', city: 'Shanghai', zip: '2000' }, token)).code).toBe(422);
  });
});
