import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type Envelope, type TestServer } from './harness.js';

// Issue 15, scope 1: refusals that used to carry only their envelope code's generic reason
// (input.invalid, login.auto_refused, none at all) now name what went wrong, over real HTTP.
// A 422's field carries the same specific code the client words it by.

let s: TestServer;
let alice: string;
let admin: string;

beforeAll(async () => {
  ({ s, alice } = await startDemo());
  admin = await s.login('admin@demo.test');
});
afterAll(async () => s?.stop());

type Refusal = Envelope<unknown> & { reason?: string; reasons?: Record<string, string> };
const post = async (route: string, body: Record<string, string | number>, token?: string) => (await s.post(route, body, token)) as Refusal;

describe('older refusals carry their own reason code', () => {
  it('auto-login with a token that is not for this mailbox: login.auto_link_invalid', async () => {
    const r = await post('/h5/login/h5-auto-login', { email: 'bob@demo.test', token: alice });
    expect(r).toMatchObject({ code: 501, reason: 'login.auto_link_invalid' });
  });

  it('an unknown route: HTTP 404 with route.not_found', async () => {
    const res = await fetch(`${s.base}/h5/no/such/route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 404, reason: 'route.not_found' });
  });

  it('sending with no recipient and no subject: compose.no_recipient, compose.subject_empty', async () => {
    const r = await post('/h5/write/send', { to: '', subject: ' ', html: '<p>x</p>' }, alice);
    expect(r).toMatchObject({ code: 422, reasons: { to: 'compose.no_recipient', subject: 'compose.subject_empty' } });
  });

  it('a recipient that is not an address: input.email_invalid', async () => {
    const r = await post('/h5/write/send', { to: 'bob@', subject: 'Hi', html: '<p>x</p>' }, alice);
    expect(r.code).toBe(422);
    expect(Object.values(r.reasons ?? {})).toEqual(['input.email_invalid']);
  });

  it('a folder name with a character mail clients cannot store: folder.name_forbidden', async () => {
    const r = await post('/h5/mboxop/create-folder', { name: 'a/b' }, alice);
    expect(r).toMatchObject({ code: 422, reasons: { name: 'folder.name_forbidden' } });
  });

  it('a folder id past 32 bits: input.format', async () => {
    const r = await s.get('/h5/mail/list', { mid: '9999999999' }, alice) as Refusal;
    expect(r).toMatchObject({ code: 422, reasons: { mid: 'input.format' } });
  });

  it('an unknown time zone: calendar.tz_invalid', async () => {
    const r = await post('/h5/setting/app-setting', { timeZone: 'Mars/Olympus' }, alice);
    expect(r).toMatchObject({ code: 422, reasons: { timeZone: 'calendar.tz_invalid' } });
  });

  it('a push address that is not http(s): push.endpoint_invalid', async () => {
    const r = await post('/h5/setting/bind-push-id', { endpoint: 'ftp://push.example.com/x', p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) }, alice);
    expect(r).toMatchObject({ code: 422, reasons: { endpoint: 'push.endpoint_invalid' } });
  });

  it('a collect login with a space and a password with a line break: input.spaces, input.line_break', async () => {
    const r = await post('/h5/collect/create', { protocol: 'pop3', host: 'pop.example.com', port: 995, tls: 'tls', username: 'ann smith', password: 'a\nb' }, alice);
    expect(r).toMatchObject({ code: 422, reasons: { username: 'input.spaces', password: 'input.line_break' } });
  });

  it('a migration login with a space: input.spaces', async () => {
    const r = await post('/h5/admin/migrate/test', { host: 'imap.example.com', port: 993, tls: 'tls', username: 'ann smith', password: 'x' }, admin);
    expect(r).toMatchObject({ code: 422, reasons: { username: 'input.spaces' } });
  });

  it('a share that lasts 3 days: share.days_invalid', async () => {
    const r = await post('/h5/disk/share/create', { id: '1', days: 3 }, alice);
    expect(r).toMatchObject({ code: 422, reasons: { days: 'share.days_invalid' } });
  });

  it('a West registration with a bad mobile and the agreement unticked: west.mobile_invalid, west.agreement_required', async () => {
    const r = await post('/h5/west/register', { email: 'carol@example.com', mobile: '12345', password: 'store-pass-1', code: '123456', agree: 0 });
    expect(r).toMatchObject({ code: 422, reasons: { mobile: 'west.mobile_invalid', agree: 'west.agreement_required' } });
  });
});
