import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpOutbound } from '../src/delivery/smtp-outbound.js';
import { startDnsStandIn } from './dns-standin.js';
import { startMxStandIn, type MxStandIn } from './mx-standin.js';

// MX routing without a relay: our resolver asks a loopback DNS server, and the
// "remote" MX is the stand-in smtp-server on its port.

let mx: MxStandIn;
let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
let out: SmtpOutbound;
const raw = Buffer.from('From: a@demo.test\r\nTo: x@y\r\nSubject: mx test\r\n\r\nhello\r\n');

beforeAll(async () => {
  mx = await startMxStandIn();
  dns = await startDnsStandIn({
    // Preferred MX resolves to an address where nothing listens: the next one must be tried.
    'partner.test': { mx: [{ priority: 20, exchange: 'mx2.partner.test' }, { priority: 10, exchange: 'mx1.partner.test' }] },
    'mx1.partner.test': { a: ['127.0.0.3'] },
    'mx2.partner.test': { a: ['127.0.0.1'] },
    // No MX records: the domain's own address is the implicit MX (RFC 5321 §5.1).
    'plain.test': { a: ['127.0.0.1'] },
    // RFC 7505 null MX.
    'nomail.test': { mx: [{ priority: 0, exchange: '.' }] },
  });
  out = new SmtpOutbound({
    relay: undefined, port: mx.port, dnsServers: [dns.server], retryBaseMs: 1, retryMaxMs: 1, maxAgeMs: 1, leaseMs: 1, pollMs: 1, concurrency: 1,
  }, 'mx.test.local');
});
afterAll(async () => {
  out.close();
  await dns.close();
  await mx.close();
});

describe('MX routing', () => {
  it('tries MX hosts in preference order and moves on when one cannot be reached', async () => {
    const r = await out.deliver('a@demo.test', 'x@partner.test', raw);
    expect(r).toMatchObject({ ok: true, host: 'mx2.partner.test' });
    expect(mx.received.at(-1)?.to).toEqual(['x@partner.test']);
  });

  it('uses the domain itself when it has no MX records', async () => {
    expect(await out.deliver('a@demo.test', 'y@plain.test', raw)).toMatchObject({ ok: true, host: 'plain.test' });
  });

  it('fails permanently for a domain that does not exist or takes no mail', async () => {
    expect(await out.deliver('a@demo.test', 'z@nowhere.test', raw)).toMatchObject({ ok: false, permanent: true, error: expect.stringContaining('5.1.2') });
    expect(await out.deliver('a@demo.test', 'z@nomail.test', raw)).toMatchObject({ ok: false, permanent: true, error: expect.stringContaining('null MX') });
  });

  it('reports a remote 4xx as temporary and a 5xx as permanent, without asking other MX hosts', async () => {
    mx.answer = () => '421 4.7.0 try later';
    expect(await out.deliver('a@demo.test', 'x@partner.test', raw)).toMatchObject({ ok: false, permanent: false, error: expect.stringContaining('try later') });
    mx.answer = () => '554 5.7.1 rejected by policy';
    expect(await out.deliver('a@demo.test', 'x@partner.test', raw)).toMatchObject({ ok: false, permanent: true, error: expect.stringContaining('rejected by policy') });
    mx.answer = () => null;
  });
});
