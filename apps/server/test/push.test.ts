import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify as verifySignature } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PushPayload, type MailSummary } from '@mailwing/shared';
import { endpointProblem } from '../src/features/push/endpoint.js';
import { OutboundGuard, outboundGuard } from '../src/net/guarded-fetch.js';
import { PushService } from '../src/features/push/push.service.js';
import { inQuietHours, localMinutes } from '../src/features/push/quiet-hours.js';
import { startDemo, type TestServer } from './harness.js';

// A stand-in push service (RFC 8030) on loopback: it records every POST, and a path
// under /push/gone/ answers 410 as a real one does for a withdrawn subscription.
interface Received { path: string; headers: http.IncomingHttpHeaders; body: Buffer }
let received: Received[] = [];
let pushServer: http.Server;
let origin = '';

// The browser's side of a subscription: a P-256 key pair and a 16-byte auth secret (RFC 8291 §2).
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: ecdh.getPublicKey().toString('base64url'), authB64: auth.toString('base64url') };
}
type Keys = ReturnType<typeof browserKeys>;

/** RFC 8291 §3 and RFC 8188 §2, done by hand: the server's encryption must be the standard one. */
function decrypt(body: Buffer, keys: Keys): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  expect(idlen).toBe(65);
  expect(ciphertext.length).toBeLessThanOrEqual(rs);
  const ecdhSecret = keys.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding (RFC 8188 §2).
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end);
}

/** RFC 8292: "vapid t=<ES256 JWT>, k=<P-256 public key>"; returns the claims once the signature checks out with k. */
function checkVapid(authorization: string | undefined): { claims: Record<string, unknown>; k: string } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  expect(m, `Authorization: ${authorization}`).not.toBeNull();
  const [, jwt, k] = m!;
  const [h, p, sig] = jwt!.split('.');
  expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toMatchObject({ typ: 'JWT', alg: 'ES256' });
  const raw = Buffer.from(k!, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' });
  expect(verifySignature('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig!, 'base64url'))).toBe(true);
  return { claims: JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>, k: k! };
}

let s: TestServer;
let alice: string;
let bob: string;
const aliceKeys = browserKeys();
const aliceEndpoint = () => `${origin}/push/alice-phone`;

beforeAll(async () => {
  pushServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = req.url?.startsWith('/push/gone/') ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => pushServer.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(pushServer.address() as AddressInfo).port}`;
  ({ s, alice, bob } = await startDemo());
  const r = await s.post('/h5/setting/bind-push-id', { endpoint: aliceEndpoint(), p256dh: aliceKeys.p256dh, auth: aliceKeys.authB64 }, alice);
  expect(r).toEqual({ code: 200, data: {} });
});
afterAll(async () => {
  await s?.stop();
  await new Promise<void>((resolve) => pushServer.close(() => resolve()));
});
beforeEach(() => { received = []; });

/** Mail over real SMTP, then every push it started has been answered. */
async function arrive(mail: { from: string; to: string; subject: string; priority?: 'high' | 'normal' }) {
  await s.send({ ...mail, text: 'body' });
  await s.rt.services.push.idle();
}
const setting = (body: Record<string, string>) => s.post('/h5/setting/app-setting', body, alice);
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

describe('Web Push on new mail', () => {
  it('sends an RFC 8291 encrypted, VAPID-signed notification for mail received over SMTP', async () => {
    const key = (await s.get<{ publicKey: string }>('/h5/setting/push-key', {}, alice)).data.publicKey;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    await arrive({ from: '"Carol Chen" <carol@example.org>', to: 'alice@demo.test', subject: 'Quarterly figures' });

    expect(received).toHaveLength(1);
    const push = received[0]!;
    expect(push.path).toBe('/push/alice-phone');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers.ttl).toBe('86400');
    expect(push.headers.urgency).toBe('normal');
    const { claims, k } = checkVapid(push.headers.authorization);
    expect(k).toBe(key);
    expect(claims.aud).toBe(origin);
    expect(claims.sub).toBe('mailto:postmaster@mx.test.local');
    const now = Date.now() / 1000;
    expect(claims.exp).toBeGreaterThan(now);
    expect(claims.exp).toBeLessThanOrEqual(now + 24 * 3600);

    const payload = PushPayload.parse(JSON.parse(decrypt(push.body, aliceKeys).toString('utf8')));
    const inbox = (await s.get<{ list: MailSummary[] }>('/h5/mail/list', { mid: '0', page: 1, size: 5 }, alice)).data.list;
    const mail = inbox.find((m) => m.subject === 'Quarterly figures')!;
    expect(payload).toEqual({
      title: 'Carol Chen', body: 'Quarterly figures', mid: mail.id, email: 'alice@demo.test', url: `./#/pages/read-mail/index?mid=${mail.id}`,
    });
  });

  it('marks urgent mail as high urgency', async () => {
    await arrive({ from: 'boss@example.org', to: 'alice@demo.test', subject: 'Now!', priority: 'high' });
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.urgency).toBe('high');
    expect(JSON.parse(decrypt(received[0]!.body, aliceKeys).toString()).title).toBe('boss@example.org');
  });

  it('notifies of mail a colleague sends from the app, but never the sender of their own copy', async () => {
    const bobKeys = browserKeys();
    await s.post('/h5/setting/bind-push-id', { endpoint: `${origin}/push/bob-phone`, p256dh: bobKeys.p256dh, auth: bobKeys.authB64 }, bob);
    const sent = await s.post<{ id: string }>('/h5/write/send', { to: 'alice@demo.test', subject: 'Lunch?', text: 'at noon' }, bob);
    expect(sent.code).toBe(200);
    await s.rt.services.push.idle();
    expect(received.map((r) => r.path)).toEqual(['/push/alice-phone']);
    expect(JSON.parse(decrypt(received[0]!.body, aliceKeys).toString())).toMatchObject({ title: 'Bob Li', body: 'Lunch?' });
    await s.post('/h5/setting/unbind-push-id', { endpoint: `${origin}/push/bob-phone` }, bob);
  });

  it('sends nothing for mail filed in Spam', async () => {
    expect((await s.post('/h5/contact/rule-add', { kind: 'block', pattern: 'pest@other.test' }, alice)).code).toBe(200);
    await arrive({ from: 'pest@other.test', to: 'alice@demo.test', subject: 'Buy now' });
    expect(received).toHaveLength(0);
    const spam = (await s.get<{ list: MailSummary[] }>('/h5/mail/list', { mid: '3', page: 1, size: 5 }, alice)).data.list;
    expect(spam.map((m) => m.subject)).toContain('Buy now');
  });

  it('sends nothing inside quiet hours, including a window that wraps past midnight', async () => {
    const now = localMinutes(new Date(), 'UTC');
    await setting({ quietEnabled: '1', quietStart: hhmm((now + 1440 - 60) % 1440), quietEnd: hhmm((now + 60) % 1440), timeZone: 'UTC' });
    await arrive({ from: 'night@example.org', to: 'alice@demo.test', subject: 'Late' });
    expect(received).toHaveLength(0);
    // The same hour in a zone where it is not quiet time.
    await setting({ timeZone: 'Pacific/Kiritimati' });
    await arrive({ from: 'night@example.org', to: 'alice@demo.test', subject: 'Late 2' });
    expect(received).toHaveLength(1);
    await setting({ quietEnabled: '0', timeZone: 'UTC' });
  });

  it('sends nothing when new-mail notification is off or the folder is not chosen', async () => {
    await setting({ newMail: '0' });
    await arrive({ from: 'x@example.org', to: 'alice@demo.test', subject: 'Off' });
    expect(received).toHaveLength(0);
    await setting({ newMail: '1', folders: '5' });
    await arrive({ from: 'x@example.org', to: 'alice@demo.test', subject: 'Inbox not chosen' });
    expect(received).toHaveLength(0);
    await setting({ folders: '0,5' });
    await arrive({ from: 'x@example.org', to: 'alice@demo.test', subject: 'On again' });
    expect(received).toHaveLength(1);
  });

  it('tells the devices of a login about new mail of the mailboxes it has bound', async () => {
    await s.post('/h5/login/bind', { email: 'bob@demo.test', password: 'demo1234' }, alice);
    await arrive({ from: 'x@example.org', to: 'bob@demo.test', subject: 'For bob' });
    expect(received.map((r) => r.path)).toEqual(['/push/alice-phone']);
    expect(JSON.parse(decrypt(received[0]!.body, aliceKeys).toString())).toMatchObject({ email: 'bob@demo.test', body: 'For bob' });
    await s.post('/h5/login/unbind', { email: 'bob@demo.test' }, alice);
    received = [];
    await arrive({ from: 'x@example.org', to: 'bob@demo.test', subject: 'For bob again' });
    expect(received).toHaveLength(0);
  });

  it('deletes a subscription the push service says is gone (410)', async () => {
    const keys = browserKeys();
    const endpoint = `${origin}/push/gone/old-tablet`;
    await s.post('/h5/setting/bind-push-id', { endpoint, p256dh: keys.p256dh, auth: keys.authB64 }, alice);
    const count = async () => (await s.rt.services.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).execute()).length;
    expect(await count()).toBe(1);
    await arrive({ from: 'x@example.org', to: 'alice@demo.test', subject: 'Anyone there?' });
    expect(received.map((r) => r.path).sort()).toEqual(['/push/alice-phone', '/push/gone/old-tablet']);
    expect(await count()).toBe(0);
  });
});

describe('subscriptions', () => {
  it('ties a subscription to the session and replaces it on the same endpoint', async () => {
    const keys = browserKeys();
    const endpoint = `${origin}/push/alice-laptop`;
    await s.post('/h5/setting/bind-push-id', { endpoint, p256dh: browserKeys().p256dh, auth: keys.authB64 }, alice);
    await s.post('/h5/setting/bind-push-id', { endpoint, p256dh: keys.p256dh, auth: keys.authB64 }, alice);
    const rows = await s.rt.services.db.selectFrom('push_subscriptions').innerJoin('sessions', 'sessions.id', 'push_subscriptions.session_id')
      .select(['push_subscriptions.p256dh', 'sessions.user_id']).where('endpoint', '=', endpoint).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.p256dh).toBe(keys.p256dh);
    expect((await s.post('/h5/setting/unbind-push-id', { endpoint }, alice)).code).toBe(200);
    expect(await s.rt.services.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).execute()).toHaveLength(0);
  });

  it('refuses bad subscription input with 422', async () => {
    const keys = browserKeys();
    const bad = async (body: Record<string, string>, field: string) => {
      const r = await s.post('/h5/setting/bind-push-id', body, alice);
      expect(r.code).toBe(422);
      expect(Object.keys(r.error as object)).toContain(field);
    };
    await bad({ endpoint: 'ftp://push.example/x', p256dh: keys.p256dh, auth: keys.authB64 }, 'endpoint');
    await bad({ endpoint: 'not a url', p256dh: keys.p256dh, auth: keys.authB64 }, 'endpoint');
    await bad({ endpoint: aliceEndpoint(), p256dh: 'abc', auth: keys.authB64 }, 'p256dh');
    // The right length, but not a point on the curve.
    await bad({ endpoint: aliceEndpoint(), p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'), auth: keys.authB64 }, 'p256dh');
    await bad({ endpoint: aliceEndpoint(), p256dh: keys.p256dh, auth: randomBytes(12).toString('base64url') }, 'auth');
    await bad({ p256dh: keys.p256dh, auth: keys.authB64 }, 'endpoint');
    expect((await s.post('/h5/setting/bind-push-id', { endpoint: aliceEndpoint(), p256dh: keys.p256dh, auth: keys.authB64 })).code).toBe(401);
  });

  it('outside tests, refuses endpoints that are not public https (SSRF)', async () => {
    const strict = new OutboundGuard({});
    const problem = async (url: string) => (await endpointProblem(url, strict))?.message ?? null;
    expect(await problem('http://push.example.com/x')).toBe('must be an https URL of a push service');
    expect(await problem('https://127.0.0.1/x')).toBe('must be a public push service');
    expect(await problem('https://[::1]/x')).toBe('must be a public push service');
    expect(await problem('https://[::ffff:127.0.0.1]/x')).toBe('must be a public push service');
    expect(await problem('https://10.1.2.3/x')).toBe('must be a public push service');
    expect(await problem('https://8.8.8.8/x')).toBeNull();
  });
});

describe('VAPID keys', () => {
  it('are made once and shared by every node of the installation', async () => {
    const a = new PushService(s.rt.services.db, s.config.push, outboundGuard(s.config.outbound, true));
    const b = new PushService(s.rt.services.db, s.config.push, outboundGuard(s.config.outbound, true));
    const [ka, kb] = await Promise.all([a.publicKey(), b.publicKey()]);
    expect(ka).toBe(kb);
    expect(ka).toBe((await s.get<{ publicKey: string }>('/h5/setting/push-key', {}, alice)).data.publicKey);
    expect(await s.rt.services.db.selectFrom('app_keys').select('name').where('name', '=', 'vapid').execute()).toHaveLength(1);
  });
});

describe('quiet hours', () => {
  const at = (iso: string) => new Date(iso);
  const q = (start: string, end: string, timeZone = 'UTC', enabled = true) => ({
    enabled, timeZone, start: Number(start.slice(0, 2)) * 60 + Number(start.slice(3)), end: Number(end.slice(0, 2)) * 60 + Number(end.slice(3)),
  });

  it('covers a window within one day, start inclusive and end exclusive', () => {
    expect(inQuietHours(at('2026-03-01T12:30:00Z'), q('12:00', '14:00'))).toBe(true);
    expect(inQuietHours(at('2026-03-01T12:00:00Z'), q('12:00', '14:00'))).toBe(true);
    expect(inQuietHours(at('2026-03-01T14:00:00Z'), q('12:00', '14:00'))).toBe(false);
    expect(inQuietHours(at('2026-03-01T11:59:00Z'), q('12:00', '14:00'))).toBe(false);
  });

  it('wraps past midnight', () => {
    expect(inQuietHours(at('2026-03-01T23:00:00Z'), q('22:00', '07:00'))).toBe(true);
    expect(inQuietHours(at('2026-03-01T03:00:00Z'), q('22:00', '07:00'))).toBe(true);
    expect(inQuietHours(at('2026-03-01T07:00:00Z'), q('22:00', '07:00'))).toBe(false);
    expect(inQuietHours(at('2026-03-01T12:00:00Z'), q('22:00', '07:00'))).toBe(false);
  });

  it('uses the user\'s time zone, is off when disabled, and is empty when start equals end', () => {
    // 15:00 UTC is 23:00 in Shanghai.
    expect(inQuietHours(at('2026-03-01T15:00:00Z'), q('22:00', '07:00', 'Asia/Shanghai'))).toBe(true);
    expect(inQuietHours(at('2026-03-01T15:00:00Z'), q('22:00', '07:00', 'UTC'))).toBe(false);
    // Daylight saving: 06:30 UTC on 1 July is 02:30 in New York (UTC−4), 1 January 01:30 (UTC−5).
    expect(localMinutes(at('2026-07-01T06:30:00Z'), 'America/New_York')).toBe(150);
    expect(localMinutes(at('2026-01-01T06:30:00Z'), 'America/New_York')).toBe(90);
    expect(inQuietHours(at('2026-03-01T23:00:00Z'), q('22:00', '07:00', 'UTC', false))).toBe(false);
    expect(inQuietHours(at('2026-03-01T23:00:00Z'), q('22:00', '22:00'))).toBe(false);
  });
});
