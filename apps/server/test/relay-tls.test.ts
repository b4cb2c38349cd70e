import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { loadConfig, type DeliveryConfig } from '../src/config.js';
import { SmtpOutbound } from '../src/delivery/smtp-outbound.js';
import { startDemo, type TestServer } from './harness.js';

// SMTP_RELAY with credentials (issue 12, finding 7): they go out only over TLS whose
// certificate checks out. Relay stand-ins on loopback: one that offers no STARTTLS,
// one with STARTTLS and one with TLS from the start, both with a self-signed
// certificate for 127.0.0.1 made here with openssl. Every one requires AUTH and
// records each AUTH it receives.

interface Relay { port: number; auths: { user: string; pass: string; secure: boolean }[]; received: { to: string[]; secure: boolean }[]; close(): Promise<void> }

async function startRelay(opts: Partial<SMTPServerOptions>): Promise<Relay> {
  const relay: Relay = { port: 0, auths: [], received: [], close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  const server = new SMTPServer({
    logger: false,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, session, cb) {
      relay.auths.push({ user: auth.username ?? '', pass: auth.password ?? '', secure: session.secure });
      cb(null, { user: auth.username });
    },
    onData(stream, session, cb) {
      stream.resume();
      stream.on('end', () => {
        relay.received.push({ to: session.envelope.rcptTo.map((r) => r.address), secure: session.secure });
        cb(null);
      });
    },
    ...opts,
  });
  // A client that gives up on the certificate drops the handshake; smtp-server reports that as an error event.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.server.address();
  relay.port = typeof addr === 'object' && addr ? addr.port : 0;
  return relay;
}

let dir: string;
let key: Buffer;
let cert: Buffer;
let caFile: string;
let otherCaFile: string;
let plain: Relay;
let starttls: Relay;
let smtps: Relay;
const raw = Buffer.from('From: alice@demo.test\r\nTo: x@partner.test\r\nSubject: relay\r\n\r\nhello\r\n');

function selfSigned(name: string): { key: string; cert: string } {
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.pem`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', `/CN=${name}`, '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  return { key: keyFile, cert: certFile };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-relay-'));
  const relayCert = selfSigned('relay.test');
  key = fs.readFileSync(relayCert.key);
  cert = fs.readFileSync(relayCert.cert);
  caFile = relayCert.cert;
  otherCaFile = selfSigned('someone-else.test').cert;
  // allowInsecureAuth: this one would take AUTH in clear text, so any AUTH the client sends shows up in `auths`.
  plain = await startRelay({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true });
  starttls = await startRelay({ key, cert });
  smtps = await startRelay({ key, cert, secure: true });
});
afterAll(async () => {
  await Promise.all([plain.close(), starttls.close(), smtps.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const config = (relay: string, relayCaFile?: string): DeliveryConfig => ({
  relay, relayCaFile, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 1_000, maxAgeMs: 60_000, leaseMs: 2_000, pollMs: 100, concurrency: 1,
});

async function deliverVia(relay: string, relayCaFile?: string) {
  const out = new SmtpOutbound(config(relay, relayCaFile), 'mx.test.local');
  try {
    return await out.deliver('alice@demo.test', 'x@partner.test', raw);
  } finally {
    out.close();
  }
}

describe('a relay with credentials', () => {
  it('never gets them from a connection without TLS: the attempt fails as temporary', async () => {
    const r = await deliverVia(`smtp://mailwing:s3cret@127.0.0.1:${plain.port}`);
    expect(r).toMatchObject({ ok: false, permanent: false, error: expect.stringMatching(/^451 4\.7\.0 .*TLS/) });
    expect(plain.auths).toEqual([]);
    expect(plain.received).toEqual([]);
  });

  it('refuses a certificate it cannot verify, over STARTTLS and over smtps, before AUTH', async () => {
    for (const [relay, url] of [[starttls, `smtp://mailwing:s3cret@127.0.0.1:${starttls.port}`], [smtps, `smtps://mailwing:s3cret@127.0.0.1:${smtps.port}`]] as const) {
      expect(await deliverVia(url), url).toMatchObject({ ok: false, permanent: false });
      // A CA that did not sign it does not help.
      expect(await deliverVia(url, otherCaFile), url).toMatchObject({ ok: false, permanent: false });
      expect(relay.auths).toEqual([]);
      expect(relay.received).toEqual([]);
    }
  });

  it('logs in and delivers once the relay\'s CA is given in SMTP_RELAY_CA', async () => {
    expect(loadConfig({ SMTP_RELAY_CA: caFile }).delivery.relayCaFile).toBe(caFile);
    for (const [relay, url] of [[starttls, `smtp://mailwing:s3cret@127.0.0.1:${starttls.port}`], [smtps, `smtps://mailwing:s3cret@127.0.0.1:${smtps.port}`]] as const) {
      expect(await deliverVia(url, caFile), url).toMatchObject({ ok: true });
      expect(relay.auths).toEqual([{ user: 'mailwing', pass: 's3cret', secure: true }]);
      expect(relay.received).toEqual([{ to: ['x@partner.test'], secure: true }]);
    }
  });
});

describe('through the queue', () => {
  let s: TestServer;
  afterAll(async () => { await s?.stop(); });

  it('keeps the job while the relay offers no TLS, and delivers it once the relay can be trusted', async () => {
    let alice: string;
    ({ s, alice } = await startDemo({ workers: true, delivery: config(`smtp://mailwing:s3cret@127.0.0.1:${plain.port}`) }));
    const sent = await s.post<{ id: string }>('/h5/write/send', { to: 'queue@partner.test', subject: 'Through a relay' }, alice);
    expect(sent.code).toBe(200);
    const job = () => s.rt.services.db.selectFrom('outbox').selectAll().where('message_id', '=', Number(sent.data.id)).executeTakeFirstOrThrow();
    const deadline = Date.now() + 15_000;
    while ((await job()).attempts < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const waiting = await job();
    expect(waiting).toMatchObject({ status: 'queued', last_error: expect.stringContaining('TLS') });
    expect(waiting.attempts).toBeGreaterThanOrEqual(2);
    expect(plain.auths).toEqual([]);
    expect(plain.received).toEqual([]);

    // The operator fixes the relay: the same job goes out, over verified STARTTLS.
    starttls.auths.length = 0;
    starttls.received.length = 0;
    await s.restart({ delivery: config(`smtp://mailwing:s3cret@127.0.0.1:${starttls.port}`, caFile) });
    while ((await job()).status !== 'sent' && Date.now() < deadline + 15_000) await new Promise((r) => setTimeout(r, 100));
    expect((await job()).status).toBe('sent');
    expect(starttls.received).toEqual([{ to: ['queue@partner.test'], secure: true }]);
    expect(starttls.auths).toEqual([{ user: 'mailwing', pass: 's3cret', secure: true }]);
  }, 45_000);
});
