import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mail, MailList } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';

// The SSRF guard through the real routes, with the test opt-outs off
// (IMAGE_PROXY_ALLOW_PRIVATE=0, PUSH_ALLOW_PRIVATE=0): the remote image proxy and
// Web Push must not reach a listener on loopback, however its address is spelled.

let listener: http.Server;
let port = 0;
let connections = 0;
let s: TestServer;
let alice: string;
let bob: string;
const strictPush = { subject: 'mailto:postmaster@mx.test.local', allowPrivate: false };

beforeAll(async () => {
  listener = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(8)));
  listener.on('connection', () => { connections += 1; });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  port = (listener.address() as AddressInfo).port;
  ({ s, alice, bob } = await startDemo({ imageProxyAllowPrivate: false, push: strictPush }));
});
afterAll(async () => {
  await s?.stop();
  listener.closeAllConnections();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});
beforeEach(() => { connections = 0; });

describe('remote images (/h5/read/image)', () => {
  it('refuses loopback in every spelling, mapped and NAT64 included, without connecting', async () => {
    const spellings = ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '127.0.0.1', '[::127.0.0.1]', '[64:ff9b::7f00:1]', '2130706433', '0x7f.0.0.1', '127.1'];
    const urls = spellings.map((h) => `http://${h}:${port}/pixel.png`);
    await s.send({ from: 'n@outside.example', to: 'bob@demo.test', subject: 'ssrf images', html: `<p>${urls.map((u) => `<img src="${u}">`).join('')}</p>` });
    const id = (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 5 }, bob)).data.list.find((m) => m.subject === 'ssrf images')!.id;
    const shown = (await s.get<Mail>('/h5/read/index', { mid: id, images: 1 }, bob)).data;
    for (const url of urls) {
      expect(shown.html, url).toContain(`url=${encodeURIComponent(url)}`);
      const r = await s.get('/h5/read/image', { mid: id, url }, bob);
      expect(r, url).toMatchObject({ code: 403, reason: 'outbound.address_refused' });
    }
    expect(connections).toBe(0);
  });
});

describe('Web Push', () => {
  const keys = () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
  };

  it('refuses to subscribe a loopback endpoint, however it is spelled', async () => {
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::127.0.0.1]', '[64:ff9b::7f00:1]', '127.0.0.1', '[::1]']) {
      const r = await s.post('/h5/setting/bind-push-id', { endpoint: `https://${host}:${port}/push/x`, ...keys() }, alice);
      expect(r, host).toMatchObject({ code: 422, reasons: { endpoint: 'push.endpoint_private' } });
    }
    expect(await s.rt.services.db.selectFrom('push_subscriptions').select('id').execute()).toHaveLength(0);
    expect(connections).toBe(0);
  });

  it('does not send to a stored subscription whose endpoint is loopback (one stored before this check existed)', async () => {
    const user = await s.rt.services.db.selectFrom('users').select('id').where('email', '=', 'alice@demo.test').executeTakeFirstOrThrow();
    await s.rt.services.db.insertInto('push_subscriptions')
      .values({ user_id: user.id, session_id: null, endpoint: `https://[::ffff:127.0.0.1]:${port}/push/stored`, ...keys() }).execute();
    await s.send({ from: 'x@example.org', to: 'alice@demo.test', subject: 'push me', text: 'hi' });
    await s.rt.services.push.idle();
    expect(connections).toBe(0);

    // The same subscription and the same mail flow with the opt-out on do connect: the refusal above was the guard's.
    await s.restart({ push: { ...strictPush, allowPrivate: true } });
    await s.send({ from: 'x@example.org', to: 'alice@demo.test', subject: 'push me again', text: 'hi' });
    await s.rt.services.push.idle();
    expect(connections).toBeGreaterThan(0);
    await s.restart({ push: strictPush });
  });
});
