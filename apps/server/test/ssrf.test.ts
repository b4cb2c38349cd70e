import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutboundGuard } from '../src/net/guarded-fetch.js';
import { AddressPolicy, dnsResolve, OutboundRefused } from '../src/net/ssrf.js';
import { startDnsStandIn } from './dns-standin.js';

// The outbound guard against a real HTTP listener on loopback and a loopback DNS
// stand-in. The listener counts TCP connections, not just requests: a refusal must
// happen before anything is dialled.

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwAEAQH/0eNDmQAAAABJRU5ErkJggg==', 'base64');
let listener: http.Server;
let port = 0;
let connections = 0;
let requests: { url: string; host: string }[] = [];
let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
let rebinds = 0;

beforeAll(async () => {
  listener = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', host: req.headers.host ?? '' });
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (u.pathname === '/redirect') res.writeHead(302, { location: u.searchParams.get('to') ?? '/' }).end();
    else if (u.pathname === '/big') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64 * 1024));
    else res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  listener.on('connection', () => { connections += 1; });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  port = (listener.address() as AddressInfo).port;
  dns = await startDnsStandIn({
    'loop.test': { a: ['127.0.0.1'] },
    'loop6.test': { aaaa: ['::1'] },
    // One public and one loopback answer: refused as a whole, the public one is never dialled.
    'mixed.test': { a: ['93.184.216.34', '127.0.0.1'] },
    'mapped.test': { aaaa: ['::ffff:127.0.0.1'] },
    // Allowed at the first question, elsewhere at every later one (DNS rebinding). 127.0.0.2 is only an answer: nothing listens or is dialled there.
    'rebind.test': { a: () => (rebinds++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']) },
  });
});
afterAll(async () => {
  listener.closeAllConnections();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await dns.close();
});
beforeEach(() => {
  connections = 0;
  requests = [];
});

const req = { timeoutMs: 5_000, maxBytes: 1024 * 1024 };
const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err, 'expected a refusal').toBeInstanceOf(OutboundRefused);
  return (err as OutboundRefused).reason;
};

describe('address policy', () => {
  const strict = new AddressPolicy({});

  it('refuses every non-public range, including IPv4 wrapped in IPv6', () => {
    const refused = [
      '127.0.0.1', '127.255.255.254', '0.0.0.0', '10.1.2.3', '172.16.0.1', '192.168.1.1', '100.64.0.1', '169.254.169.254',
      '224.0.0.1', '255.255.255.255', '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '240.0.0.1',
      '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'fec0::1', '2001:db8::1', '100::1',
      // IPv4-mapped, in both spellings, and of each private kind.
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:0.0.0.0',
      // IPv4-compatible (deprecated), NAT64 to private IPv4, local-use NAT64, SIIT, 6to4, Teredo.
      '::127.0.0.1', '::7f00:1', '::8.8.8.8', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b:1::a00:1', '::ffff:0:7f00:1',
      '2002:7f00:1::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', 'fe80::1%lo', 'not-an-ip',
    ];
    for (const ip of refused) expect(strict.problem(ip), ip).not.toBeNull();
    expect(strict.problem('::ffff:7f00:1')).toBe('::ffff:7f00:1 is a loopback address');
    expect(strict.problem('64:ff9b::7f00:1')).toBe('64:ff9b::7f00:1 is a nat64 loopback address');
  });

  it('allows global unicast, and public IPv4 behind the mapped and NAT64 forms', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:830::200e', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(strict.problem(ip), ip).toBeNull();
    }
  });

  it('lets an allow-list open exact ranges, matched through the mapped form too', () => {
    const p = new AddressPolicy({ allow: ['127.0.0.1/32', 'fd00:1::/64'] });
    expect(p.problem('127.0.0.1')).toBeNull();
    expect(p.problem('::ffff:127.0.0.1')).toBeNull();
    expect(p.problem('fd00:1::5')).toBeNull();
    expect(p.problem('127.0.0.2')).not.toBeNull();
    expect(p.problem('10.0.0.1')).not.toBeNull();
    expect(() => new AddressPolicy({ allow: ['not-a-cidr'] })).toThrow(/not a CIDR/);
  });
});

describe('guarded fetch', () => {
  it('refuses every spelling of loopback and private targets without opening a connection', async () => {
    const strict = new OutboundGuard({ resolve: dnsResolve([dns.server]) });
    const system = new OutboundGuard({});
    const urls = [
      `http://127.0.0.1:${port}/`, `http://127.1:${port}/`, `http://0x7f.0.0.1:${port}/`, `http://2130706433:${port}/`, `http://0177.0.0.1:${port}/`,
      `http://[::1]:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://[::ffff:7f00:1]:${port}/`, `http://[::127.0.0.1]:${port}/`,
      `http://[64:ff9b::7f00:1]:${port}/`, `http://[::]:${port}/`, `http://0.0.0.0:${port}/`, `http://10.0.0.1:${port}/`,
      'http://169.254.169.254/latest/meta-data/', `http://loop.test:${port}/`, `http://loop6.test:${port}/`, `http://mixed.test:${port}/`,
      `http://mapped.test:${port}/`, `https://loop.test:${port}/`,
    ];
    for (const url of urls) expect(await refusal(strict.fetch(url, req)), url).toBe('outbound.address_refused');
    // The system resolver's answer for localhost is checked the same way.
    expect(await refusal(system.fetch(`http://localhost:${port}/`, req))).toBe('outbound.address_refused');
    expect(await refusal(strict.fetch(`http://nowhere.test:${port}/`, req))).toBe('outbound.unresolvable');
    expect(await refusal(strict.fetch('file:///etc/passwd', req))).toBe('outbound.scheme_refused');
    expect(await refusal(strict.fetch(`gopher://127.0.0.1:${port}/`, req))).toBe('outbound.scheme_refused');
    expect(connections).toBe(0);
  });

  it('reaches an allow-listed address by name, with the name in Host', async () => {
    const guard = new OutboundGuard({ allow: ['127.0.0.1/32'], resolve: dnsResolve([dns.server]) });
    const res = await guard.fetch(`http://loop.test:${port}/pixel.png`, req);
    expect(res.status).toBe(200);
    expect(res.body.equals(png)).toBe(true);
    expect(requests).toEqual([{ url: '/pixel.png', host: `loop.test:${port}` }]);
    guard.close();
  });

  it('connects to the address it checked: a name that rebinds after the check cannot redirect the connection', async () => {
    const guard = new OutboundGuard({ allow: ['127.0.0.1/32'], resolve: dnsResolve([dns.server]) });
    const asked = () => dns.queries.filter((q) => q.name === 'rebind.test' && q.type === 'A').length;
    const res = await guard.fetch(`http://rebind.test:${port}/pixel.png`, req);
    expect(res.status).toBe(200);
    // One question, answered 127.0.0.1; that answer was dialled, no second lookup happened.
    expect(asked()).toBe(1);
    expect(requests).toHaveLength(1);
    // Asked again, the name now points elsewhere: refused before any connection.
    const before = connections;
    expect(await refusal(guard.fetch(`http://rebind.test:${port}/pixel.png`, req))).toBe('outbound.address_refused');
    expect(asked()).toBe(2);
    expect(connections).toBe(before);
    guard.close();
  });

  it('checks every redirect hop: a redirect to a private address is refused before it is followed', async () => {
    const guard = new OutboundGuard({ allow: ['127.0.0.1/32'], resolve: dnsResolve([dns.server]) });
    const via = (to: string) => `http://loop.test:${port}/redirect?to=${encodeURIComponent(to)}`;
    for (const to of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', `http://[::ffff:7f00:2]:${port}/`, `http://127.0.0.2:${port}/`]) {
      requests = [];
      expect(await refusal(guard.fetch(via(to), { ...req, maxRedirects: 3 })), to).toBe('outbound.address_refused');
      expect(requests.map((r) => r.url)).toEqual([`/redirect?to=${encodeURIComponent(to)}`]);
    }
    requests = [];
    // An allowed hop is followed; without maxRedirects the 3xx is handed back.
    expect((await guard.fetch(via('/pixel.png'), { ...req, maxRedirects: 3 })).body.equals(png)).toBe(true);
    expect((await guard.fetch(via('/pixel.png'), req)).status).toBe(302);
    // A loop stops at the limit.
    requests = [];
    expect(await refusal(guard.fetch(`http://loop.test:${port}/loop`, { ...req, maxRedirects: 2 }))).toBe('outbound.redirect_limit');
    expect(requests).toHaveLength(3);
    guard.close();
  });

  it('keeps the size bound', async () => {
    const guard = new OutboundGuard({ allow: ['127.0.0.1/32'] });
    const err = await guard.fetch(`http://127.0.0.1:${port}/big`, { ...req, maxBytes: 1024 }).catch((e: unknown) => e);
    expect((err as { reason?: string }).reason).toBe('outbound.too_large');
    guard.close();
  });
});
